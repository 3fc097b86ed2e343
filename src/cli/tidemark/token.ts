// `tidemark token` / `npm run token`: mints a bearer token with the secret the gateway verifies with
// (AUTH_JWT_SECRET, else in development the one kept in <STACK_DIR>, made on first use), so a token
// minted before or after `npm start` keeps working across restarts. Tokens of an identity provider
// (AUTH_JWKS_URL) come from that provider, not from here.
import { InvalidArgumentError } from 'commander';
import { withDevelopmentSecret } from '../../auth/developmentTokens';
import { ROLES, type Role } from '../../auth/principal';
import { signToken } from '../../auth/tokens';
import type { Settings } from '../../config/settings';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90`, `90s`, `30m`, `1h`, `7d` as seconds (commander argument parser). */
export function parseTtl(v: string): number {
  const m = /^(\d{1,7})([smhd]?)$/.exec(v.trim());
  const seconds = m ? Number(m[1]) * UNITS[m[2] || 's']! : NaN;
  if (!(seconds > 0) || seconds > 366 * 86400) throw new InvalidArgumentError('a duration such as 90s, 30m, 1h or 7d (at most a year)');
  return seconds;
}

/** One role, repeatable (commander argument parser). */
export function parseRole(v: string, previous: Role[] = []): Role[] {
  if (!ROLES.includes(v as Role)) throw new InvalidArgumentError(`one of ${ROLES.join(', ')}`);
  return [...previous, v as Role];
}

export async function mintToken(s: Settings, o: { roles: Role[]; subject?: string; ttlSeconds: number }): Promise<string> {
  const withSecret = withDevelopmentSecret(s);
  if (!withSecret.authJwtSecret)
    throw new Error(
      s.authJwksUrl
        ? 'AUTH_JWKS_URL is set: tokens come from your identity provider'
        : 'no secret to sign with: set AUTH_JWT_SECRET (or TIDEMARK_ENV=development to use the development secret in STACK_DIR)',
    );
  const subject = o.subject ?? `cli-${o.roles.join('-')}`;
  return signToken(
    withSecret.authJwtSecret,
    { subject, roles: o.roles },
    { issuer: s.authIssuer, audience: s.authAudience, ttlSeconds: o.ttlSeconds },
  );
}
