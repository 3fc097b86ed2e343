// The key of erasure's keyed hashes (src/shared/keyedHash.ts). Every process of a deployment derives the
// same one (the gateway hashes a request, the reconciler a repeated one, and both must agree), so it is
// never random: ERASURE_HASH_SECRET when set, else derived from CONSISTENCY_TOKEN_SECRET or
// AUTH_JWT_SECRET, else (outside production) from the development secret. HKDF with its own `info`
// keeps it independent of the keys derived from the same secret for tokens.
import { hkdfSync } from 'node:crypto';
import { developmentSecret } from '../auth/developmentTokens';
import { CONSISTENCY_SECRET_PROBLEM, ConfigError } from '../config/settings';
import type { ErasureKeySettings } from '../config/slices';

const INFO = 'tidemark erasure hash v1';

const derive = (secret: string) => Buffer.from(hkdfSync('sha256', secret, 'tidemark', INFO, 32));

export function erasureKey(s: ErasureKeySettings): Buffer {
  const secret = s.erasureHashSecret ?? s.consistencyTokenSecret ?? s.authJwtSecret;
  if (secret) return derive(secret);
  if (s.env !== 'production') return derive(developmentSecret(s));
  throw new ConfigError([CONSISTENCY_SECRET_PROBLEM]);
}
