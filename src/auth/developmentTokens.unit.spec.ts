// Development tokens: one per role with a sample scope, each accepted by a gateway verifying with the
// same settings (claim names included); `service` only when local-service is an enabled subject.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/settings';
import { DEVELOPMENT_PRINCIPALS, mintDevelopmentTokens, withDevelopmentSecret } from './developmentTokens';
import { jwtOptionsOf } from './jwtOptions';
import { fromJwtSecret } from './tokens';

const secret = 'unit-test-secret-0123456789abcdefghij';
const stackDir = mkdtempSync(join(tmpdir(), 'tidemark-devtokens-'));
afterAll(() => rmSync(stackDir, { recursive: true, force: true }));

describe('development tokens', () => {
  it('mints one token per role but service, each read back with its sample scope', async () => {
    const s = withDevelopmentSecret(loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: stackDir, STACK_MANAGE: 'false' }));
    const secret = s.authJwtSecret!;
    const tokens = await mintDevelopmentTokens(s);
    expect(tokens.map((t) => t.role)).toEqual(['customer', 'teacher', 'student', 'analyst', 'operator']);
    const gateway = fromJwtSecret(secret, jwtOptionsOf(s));
    for (const t of tokens) await expect(gateway.verify(t.token)).resolves.toEqual(DEVELOPMENT_PRINCIPALS[t.role]);
    expect(DEVELOPMENT_PRINCIPALS.teacher.schoolIds).toEqual([1, 2]);
    expect(DEVELOPMENT_PRINCIPALS.student.userId).toBe(1001);
    expect(DEVELOPMENT_PRINCIPALS.customer.customerId).toBe('customer-1');
    expect(DEVELOPMENT_PRINCIPALS.analyst.schoolIds).toBeUndefined();
  });

  it('adds service when local-service is listed, and writes the claims under the configured names', async () => {
    const s0 = loadSettings({
      TIDEMARK_ENV: 'development',
      STACK_DIR: stackDir,
      AUTH_SERVICE_SUBJECTS: 'local-service',
      AUTH_ROLES_CLAIM: 'realm_access.roles',
      AUTH_SCHOOL_IDS_CLAIM: 'https://x/claims.school_ids',
    });
    const s = withDevelopmentSecret(s0);
    const secret = s.authJwtSecret!;
    const tokens = await mintDevelopmentTokens(s);
    expect(tokens.map((t) => t.role)).toContain('service');
    const gateway = fromJwtSecret(secret, jwtOptionsOf(s));
    for (const t of tokens) await expect(gateway.verify(t.token)).resolves.toEqual(DEVELOPMENT_PRINCIPALS[t.role]);
  });

  it('mints nothing with a configured AUTH_JWT_SECRET, even in development', async () => {
    withDevelopmentSecret(loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: stackDir }));
    const configured = loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: stackDir, AUTH_JWT_SECRET: secret });
    expect(await mintDevelopmentTokens(configured)).toEqual([]);
  });

  it('mints nothing outside development', async () => {
    expect(await mintDevelopmentTokens(loadSettings({ AUTH_JWT_SECRET: secret, TIDEMARK_ENV: 'test' }))).toEqual([]);
  });
});
