// Development tokens: one per role, signed with the development secret, so `npm start` is usable in one
// command. main.ts prints them; the gateway offers them to the console's sign-in page on a loopback
// address only (src/graphql/console.ts). Never minted outside development mode.
//
// The development secret lives in <STACK_DIR>/dev-jwt-secret (git-ignored, mode 0600), made on first
// use and kept, so a token minted with `npm run token` or printed at start survives restarts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stackPath } from '../config/paths';
import type { Settings } from '../config/settings';
import { ROLES, type Role } from './principal';
import { signToken } from './tokens';

export interface DevelopmentToken {
  role: Role;
  token: string;
}

export async function mintDevelopmentTokens(
  s: Pick<Settings, 'env' | 'authJwtSecret' | 'authIssuer' | 'authAudience'>,
): Promise<DevelopmentToken[]> {
  if (s.env !== 'development' || !s.authJwtSecret) return [];
  const o = { issuer: s.authIssuer, audience: s.authAudience };
  return Promise.all(
    ROLES.map(async (role) => ({ role, token: await signToken(s.authJwtSecret!, { subject: `local-${role}`, roles: [role] }, o) })),
  );
}

/** The file holding the development secret. */
export const developmentSecretFile = (s: Pick<Settings, 'stackDir'>): string => join(stackPath(s), 'dev-jwt-secret');

/** The development secret: read from its file, or made (mode 0600) when missing. */
export function developmentSecret(s: Pick<Settings, 'stackDir'>): string {
  const file = developmentSecretFile(s);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length < 32) throw new Error(`${file} holds no usable secret (fewer than 32 characters); delete it to make a new one`);
    return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(stackPath(s), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    // 'wx': when two processes start at once, the first file wins and both use it.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8').trim();
  }
}

/** Settings with the secret tokens are verified with: AUTH_JWT_SECRET, else in development the kept one. */
export function withDevelopmentSecret<S extends Pick<Settings, 'env' | 'authJwtSecret' | 'authJwksUrl' | 'stackDir'>>(s: S): S {
  if (s.env !== 'development' || s.authJwtSecret || s.authJwksUrl) return s;
  return { ...s, authJwtSecret: developmentSecret(s) };
}
