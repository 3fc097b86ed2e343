// Development tokens: one per role, signed with the development secret, so `npm start` is usable in one
// command. main.ts prints them; with CONSOLE_DEV_TOKENS the gateway offers them to the console's sign-in
// page on a loopback address only (src/graphql/console.ts). Never minted outside development mode, nor
// with a configured AUTH_JWT_SECRET (only with the development secret below). Scoped roles carry a
// sample scope (a scoped token without its claim would be refused), under the configured claim names;
// `service` only when its subject, local-service, is listed in AUTH_SERVICE_SUBJECTS (else the gateway
// would refuse it too). Every token Tidemark mints (these, `tidemark token`, the CLI's operator token)
// goes through mintToken here, so all are signed and shaped alike.
//
// The development secret lives in <STACK_DIR>/dev-jwt-secret (git-ignored, mode 0600), made on first
// use and kept, so a token minted with `npm run token` or printed at start survives restarts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stackPath } from '../config/paths';
import type { DevelopmentSecretSettings, MintSettings, StackDirSettings } from '../config/slices';
import { jwtOptionsOf } from './jwtOptions';
import { ROLES, type Principal, type Role } from './principal';
import { signToken } from './tokens';

export interface DevelopmentToken {
  role: Role;
  token: string;
}

export type { MintSettings };

/** The principal of each development token: subject local-<role>, with a sample scope. */
export const DEVELOPMENT_PRINCIPALS: { readonly [R in Role]: Principal } = {
  customer: { subject: 'local-customer', roles: ['customer'], customerId: 'customer-1' },
  teacher: { subject: 'local-teacher', roles: ['teacher'], schoolIds: [1, 2] },
  student: { subject: 'local-student', roles: ['student'], userId: 1001 },
  analyst: { subject: 'local-analyst', roles: ['analyst'] },
  operator: { subject: 'local-operator', roles: ['operator'] },
  service: { subject: 'local-service', roles: ['service'] },
};

/**
 * One token per role, in development only, and only when the gateway verifies with the development
 * secret kept in STACK_DIR: a configured AUTH_JWT_SECRET (a real deployment's key) never signs one.
 */
export async function mintDevelopmentTokens(s: MintSettings): Promise<DevelopmentToken[]> {
  if (s.env !== 'development' || !s.authJwtSecret || s.authJwtSecret !== keptDevelopmentSecret(s)) return [];
  const principals = ROLES.map((r) => DEVELOPMENT_PRINCIPALS[r]).filter(
    (p) => !p.roles.includes('service') || s.authServiceSubjects.includes(p.subject),
  );
  return Promise.all(principals.map(async (p) => ({ role: p.roles[0]!, token: await mintToken(s, p) })));
}

/**
 * The one way Tidemark mints a token (the development tokens above, `tidemark token`, the CLI's operator
 * token): signed with the secret the gateway verifies with (AUTH_JWT_SECRET, else in development the kept
 * one), under the configured issuer, audience and claim names. Throws at once (before any signing) when
 * there is no secret to sign with.
 */
export function mintToken(s: MintSettings, p: Principal, ttlSeconds?: number): Promise<string> {
  const secret = withDevelopmentSecret(s).authJwtSecret;
  if (!secret)
    throw new Error(
      s.authJwksUrl
        ? 'AUTH_JWKS_URL is set: tokens come from your identity provider'
        : 'no secret to sign with: set AUTH_JWT_SECRET (or TIDEMARK_ENV=development to use the development secret in STACK_DIR)',
    );
  return signToken(secret, p, { ...jwtOptionsOf(s), ttlSeconds });
}

/** The file holding the development secret. */
export const developmentSecretFile = (s: StackDirSettings): string => join(stackPath(s), 'dev-jwt-secret');

/** The development secret if its file exists (never made here). */
function keptDevelopmentSecret(s: StackDirSettings): string | undefined {
  try {
    return readFileSync(developmentSecretFile(s), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The development secret: read from its file, or made (mode 0600) when missing. */
export function developmentSecret(s: StackDirSettings): string {
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
export function withDevelopmentSecret<S extends DevelopmentSecretSettings>(s: S): S {
  if (s.env !== 'development' || s.authJwtSecret || s.authJwksUrl) return s;
  return { ...s, authJwtSecret: developmentSecret(s) };
}
