// The key consistency tokens are MACed with, from the settings. Every gateway of a deployment must
// derive the same key (a token issued by one is checked by another), so it is never random per
// process: CONSISTENCY_TOKEN_SECRET when set, else derived from AUTH_JWT_SECRET, else (outside
// production) from the development secret every local process shares. HKDF with its own `info`
// keeps the derived key independent of the bearer-token key: a MAC of one can never pass as the other.
// Production with neither secret is refused by the settings' cross-checks (settings.ts).
import { hkdfSync } from 'node:crypto';
import { developmentSecret } from '../../auth/developmentTokens';
import { CONSISTENCY_SECRET_PROBLEM, ConfigError } from '../../config/settings';
import type { ConsistencyKeySettings } from '../../config/slices';

const INFO = 'tidemark consistency token v1';

const derive = (secret: string) => Buffer.from(hkdfSync('sha256', secret, 'tidemark', INFO, 32));

export type { ConsistencyKeySettings };

export function consistencyKey(s: ConsistencyKeySettings): Buffer {
  if (s.consistencyTokenSecret) return derive(s.consistencyTokenSecret);
  if (s.authJwtSecret) return derive(s.authJwtSecret);
  if (s.env !== 'production') return derive(developmentSecret(s));
  throw new ConfigError([CONSISTENCY_SECRET_PROBLEM]);
}
