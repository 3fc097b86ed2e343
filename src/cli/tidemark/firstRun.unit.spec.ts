// First run: `.env` fills in what the environment lacks, and the development secret is kept (mode
// 0600) so tokens survive restarts. `tidemark token` arguments and scopes: token.unit.spec.ts.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentSecret, developmentSecretFile, withDevelopmentSecret } from '../../auth/developmentTokens';
import { fromJwtSecret } from '../../auth/tokens';
import { loadDotEnvFile } from '../../config/loadDotEnv';
import { loadSettings } from '../../config/settings';
import { mintRequestedToken } from './token';

describe('first run', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tidemark-first-run-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads .env without overriding the real environment', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'HTTP_PORT=4100\nLOG_LEVEL=debug\n# a comment\nCORS_ORIGINS=https://a.example.com\n');
    const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn', TIDEMARK_ENV: 'development' };
    loadDotEnvFile(file, env);
    expect(env).toEqual({ LOG_LEVEL: 'warn', TIDEMARK_ENV: 'development', HTTP_PORT: '4100', CORS_ORIGINS: 'https://a.example.com' });
    loadDotEnvFile(join(dir, 'missing.env'), env); // absent: nothing happens
    expect(loadSettings(env).httpPort).toBe(4100);
  });

  it('keeps the development secret in STACK_DIR, readable by its owner only, and reuses it', () => {
    const s = { stackDir: join(dir, 'stack') };
    const first = developmentSecret(s);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(developmentSecretFile(s)).mode & 0o777).toBe(0o600);
    expect(developmentSecret(s)).toBe(first);
    writeFileSync(developmentSecretFile(s), 'short');
    expect(() => developmentSecret(s)).toThrow(/delete it to make a new one/);
  });

  it('uses the kept secret only in development without a configured secret or JWKS', () => {
    const stackDir = join(dir, 'stack');
    const dev = loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: stackDir });
    expect(withDevelopmentSecret(dev).authJwtSecret).toBe(developmentSecret({ stackDir }));
    const configured = loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: stackDir, AUTH_JWT_SECRET: 's'.repeat(32) });
    expect(withDevelopmentSecret(configured).authJwtSecret).toBe('s'.repeat(32));
    expect(withDevelopmentSecret(loadSettings({ STACK_DIR: stackDir, TIDEMARK_ENV: 'test' })).authJwtSecret).toBeUndefined();
  });

  it('mints a token the gateway of a later start accepts', async () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: join(dir, 'stack') });
    const token = await mintRequestedToken(s, { roles: ['operator'], ttlSeconds: 3600 });
    // A "restart": settings read again, the secret read from the file again.
    const again = withDevelopmentSecret(loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: join(dir, 'stack') }));
    await expect(
      fromJwtSecret(again.authJwtSecret!, { issuer: again.authIssuer, audience: again.authAudience }).verify(token),
    ).resolves.toEqual({
      subject: 'cli-operator',
      roles: ['operator'],
    });
    await expect(
      mintRequestedToken(loadSettings({ STACK_DIR: join(dir, 'stack'), TIDEMARK_ENV: 'test' }), { roles: ['operator'], ttlSeconds: 60 }),
    ).rejects.toThrow(/set AUTH_JWT_SECRET/);
  });
});
