// Deployment mistakes (issue #29): production is the default and refuses each insecure setting unless
// ALLOW_INSECURE_TRANSPORT=true, starts with that allowance (warning naming each), serves introspection,
// the explorer, /readyz and /metrics nowhere but where allowed; development binds to loopback only; a
// request through a same-host reverse proxy (from 127.0.0.1, Host: 127.0.0.1) never receives a
// development token from a production gateway, nor from a development one verifying with a configured
// AUTH_JWT_SECRET; a start-up error never echoes a secret or a URL's credentials.
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ConfigError, loadSettings, settingsWarnings } from '../../src/config/settings';
import { executeRaw } from '../support/graphqlClient';
import { createTestEnv, TEST_JWT_SECRET, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(180000);

const SECRET = { AUTH_JWT_SECRET: TEST_JWT_SECRET };
const SECURE = {
  ...SECRET,
  MYSQL_TLS: 'verify',
  PG_TLS: 'verify',
  KAFKA_SSL: 'verify',
  CLICKHOUSE_URL: 'https://ch.internal:8443',
  CLICKHOUSE_PASSWORD: 'ch-pass-0123',
  MYSQL_PASSWORD: 'my-pass-0123',
  PG_PASSWORD: 'pg-pass-0123',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadSettings({ TIDEMARK_ENV: 'production', ...env });
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

/** GET with an explicit Host header, from this host (a reverse proxy on the same machine). */
function getWithHost(url: string, host: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('deployment mistakes', () => {
  it('is production without TIDEMARK_ENV, and a fully secured production configuration starts clean', () => {
    expect(problemsOf(SECURE)).toEqual([]);
    expect(loadSettings({ ...SECURE }).env).toBe('production');
  });

  it.each([
    ['MYSQL_TLS', { MYSQL_TLS: 'off' }],
    ['MYSQL_TLS', { MYSQL_TLS: 'require' }],
    ['PG_TLS', { PG_TLS: 'off' }],
    ['KAFKA_SSL', { KAFKA_SSL: 'require' }],
    ['CLICKHOUSE_URL', { CLICKHOUSE_URL: 'http://ch.internal:8123' }],
    ['CLICKHOUSE_PASSWORD', { CLICKHOUSE_PASSWORD: '' }],
    ['CLICKHOUSE_READ_PASSWORD', { CLICKHOUSE_READ_USER: 'tidemark_reader', CLICKHOUSE_READ_PASSWORD: '' }],
    ['CLICKHOUSE_READ_PASSWORD', { CLICKHOUSE_READ_USER: 'tidemark_reader', CLICKHOUSE_READ_PASSWORD: 'tidemark-reader-local' }],
    ['MYSQL_PASSWORD', { MYSQL_PASSWORD: 'tidemark' }],
    ['FITNESS_SHARDS', { FITNESS_SHARDS: 'mysql://app:tidemark@db1.internal:3306/fit_0,mysql://db2.internal:3306/fit_1' }],
    ['PG_PASSWORD', { PG_PASSWORD: '' }],
    // With a JWKS there is no AUTH_JWT_SECRET to derive the consistency-token key from: it is given.
    ['AUTH_JWKS_URL', { AUTH_JWT_SECRET: '', AUTH_JWKS_URL: 'http://idp.internal/jwks', CONSISTENCY_TOKEN_SECRET: 'c'.repeat(40) }],
  ] as const)('production refuses an insecure %s, and starts with ALLOW_INSECURE_TRANSPORT=true (logged)', (name, bad) => {
    const env: Record<string, string> = { ...SECURE, ...bad };
    if (!env.AUTH_JWT_SECRET) delete env.AUTH_JWT_SECRET;
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
    expect(problems[0]).toContain('ALLOW_INSECURE_TRANSPORT=true');
    for (const v of Object.values(bad)) if (v.length > 8) expect(problems[0]).not.toContain(v);
    const allowed = loadSettings({ TIDEMARK_ENV: 'production', ...env, ALLOW_INSECURE_TRANSPORT: 'true' });
    expect(settingsWarnings(allowed).some((w) => w.startsWith('ALLOW_INSECURE_TRANSPORT=true') && w.includes(name))).toBe(true);
  });

  it('never echoes a short secret or the credentials in a URL when it refuses to start', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'main.ts')], {
      env: {
        PATH: process.env.PATH,
        STACK_MANAGE: 'false',
        AUTH_JWT_SECRET: 'too-short-secret-xyz',
        CLICKHOUSE_URL: 'https://admin:hunter2-credential@ch.internal:99999',
      },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('AUTH_JWT_SECRET=(value hidden) is invalid');
    expect(r.stderr).toContain('CLICKHOUSE_URL');
    for (const secret of ['too-short-secret-xyz', 'hunter2-credential']) expect(r.stderr + r.stdout).not.toContain(secret);
  });

  it('refuses development on an address other than loopback', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'main.ts'), '--development'], {
      env: { PATH: process.env.PATH, STACK_MANAGE: 'false', HTTP_HOST: '0.0.0.0' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('HTTP_HOST must be a loopback address');
    expect(r.stdout).not.toContain('development token');
  });

  describe('gateways', () => {
    let env: TestEnv;
    let prod: Tidemark | undefined;
    let dev: Tidemark | undefined;
    beforeAll(async () => {
      env = await createTestEnv({}, { migrate: false });
    });
    afterAll(async () => {
      await prod?.stop();
      await dev?.stop();
      await env?.cleanup();
    });

    it('production on 127.0.0.1 behind a same-host reverse proxy: no development token, no introspection, explorer, /readyz or /metrics on the API port', async () => {
      // The local engines are plaintext with the local passwords: allowed explicitly, as a deployment would have to.
      const s = loadSettings({
        ...process.env,
        TIDEMARK_ENV: 'production',
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        ALLOW_INSECURE_TRANSPORT: 'true',
      });
      expect(s).toMatchObject({ graphqlIntrospection: false, graphqlExplorer: false, consoleDevTokens: false });
      prod = await startTidemark(
        { ...env.settings, env: 'production', graphqlIntrospection: false, graphqlExplorer: false, roles: ['gateway'] },
        { migrate: false },
      );
      const url = prod.gateway!.url;
      const base = url.replace(/\/graphql$/, '');
      for (const host of ['127.0.0.1', new URL(base).host, 'localhost'])
        expect(await getWithHost(`${base}/console/dev-tokens`, host)).toBe(404);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      expect((await fetch(`${prod.ops.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${prod.ops.url}/metrics`)).status).toBe(200);
      const op = await authHeader(env.settings, 'operator');
      const intro = await executeRaw(url, '{ __schema { queryType { name } } }', undefined, op);
      expect(intro.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const page = await fetch(url, { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toContain('graphiql');
    });

    it('development verifying with a configured AUTH_JWT_SECRET mints no development token, even with CONSOLE_DEV_TOKENS', async () => {
      dev = await startTidemark({ ...env.settings, env: 'development', consoleDevTokens: true, roles: ['gateway'] }, { migrate: false });
      const base = dev.gateway!.url.replace(/\/graphql$/, '');
      expect(await getWithHost(`${base}/console/dev-tokens`, '127.0.0.1')).toBe(404);
    });
  });
});
