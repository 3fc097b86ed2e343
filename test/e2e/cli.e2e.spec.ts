// `npx tidemark` against a running gateway, as an operator would run it: the bin entry (through tsx,
// no build) with its URL and token from the environment, or in development from the kept secret.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { developmentSecret } from '../../src/auth/developmentTokens';
import { executeRaw } from '../support/graphqlClient';
import { createTestEnv, TEST_JWT_SECRET, type TestEnv } from '../support/testEnv';
import { tokenFor } from '../support/tokens';

jest.setTimeout(120000);

const bin = join(__dirname, '..', '..', 'bin', 'tidemark.cjs');
const exec = promisify(execFile);

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with only the environment given (plus PATH/HOME), so the machine's settings do not leak in. */
async function tidemark(args: string[], env: Record<string, string>): Promise<Ran> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      timeout: 60000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('tidemark command line', () => {
  let env: TestEnv;
  let app: Tidemark;
  let stackDir: string;
  let asOperator: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark({ ...env.settings, roles: ['gateway'] }, { migrate: false });
    stackDir = mkdtempSync(join(tmpdir(), 'tidemark-cli-'));
    const s = env.settings;
    // The databases of this suite, so `migrate status` reads what the gateway reads.
    asOperator = {
      TIDEMARK_ENV: 'test',
      TIDEMARK_URL: app.gateway!.url,
      TIDEMARK_TOKEN: await tokenFor(s, 'operator'),
      STACK_DIR: stackDir,
    };
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
    rmSync(stackDir, { recursive: true, force: true });
  });

  it('documents every command with --help', async () => {
    const top = await tidemark(['--help'], {});
    expect(top.code).toBe(0);
    for (const c of ['token', 'replay-parked', 'replay-dead-letters', 'reconcile', 'repair', 'rebuild', 'migrate'])
      expect(top.stdout).toContain(`  ${c}`);
    const reconcile = await tidemark(['reconcile', '--help'], {});
    expect(reconcile.stdout).toMatch(/--detect-id <n>[\s\S]*--level <level>/);
    expect((await tidemark(['migrate', 'status', '--help'], {})).stdout).toContain('Applied and pending migrations');
    expect((await tidemark(['replay-dead-letters', '--help'], {})).stdout).toContain('--domain <domain>');
  });

  it('mints a token the gateway accepts', async () => {
    const r = await tidemark(['token', '--role', 'operator', '--ttl', '1h'], { TIDEMARK_ENV: 'test', AUTH_JWT_SECRET: TEST_JWT_SECRET });
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    const q = await executeRaw(app.gateway!.url, '{ publications(domain: orders, first: 1) { nodes { eventId } } }', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(q.errors).toBeUndefined();
    const refused = await tidemark(['token', '--role', 'root'], { TIDEMARK_ENV: 'test', AUTH_JWT_SECRET: TEST_JWT_SECRET });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("argument 'root' is invalid");
    // Fail closed: a scoped role without its claim gets no token at all.
    const unscoped = await tidemark(['token', '--role', 'teacher'], { TIDEMARK_ENV: 'test', AUTH_JWT_SECRET: TEST_JWT_SECRET });
    expect(unscoped.code).not.toBe(0);
    expect(unscoped.stdout).toBe('');
    expect(unscoped.stderr).toContain('the teacher role needs its school_ids claim: add --claim school_ids=11,12');
  });

  // Replays, repairs and rebuilds acting on real state: cliActions.e2e.spec.ts.
  it('reconciles a scope through the GraphQL API; a replay with nothing dead-lettered says so', async () => {
    const r = await tidemark(['reconcile', '--detect-id', '912345', '--level', 'COUNTS'], asOperator);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ run: { domain: 'fitness', outcome: 'CLEAN', discrepanciesFound: 0 }, discrepancies: [] });
    const replay = await tidemark(['replay-dead-letters', '--domain', 'orders'], asOperator);
    expect(JSON.parse(replay.stdout)).toEqual({ replayedCount: 0, eventIds: [] });
    const noScope = await tidemark(['reconcile'], asOperator);
    expect(noScope.code).toBe(1);
    expect(noScope.stderr).toContain('give a scope');
  });

  it('shows migration status, with the development secret when no token is given', async () => {
    // A gateway verifying with the secret kept in STACK_DIR, as `npm start` in development does.
    const dev = await startTidemark(
      { ...env.settings, roles: ['gateway'], authJwtSecret: developmentSecret({ stackDir }) },
      { migrate: false },
    );
    try {
      const r = await tidemark(['migrate', 'status'], { TIDEMARK_ENV: 'development', TIDEMARK_URL: dev.gateway!.url, STACK_DIR: stackDir });
      expect(r.stderr).toBe('');
      const lines = r.stdout.trim().split('\n');
      expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
        ...env.settings.fitnessShardDatabases.map((d) => `mysql ${d}`),
        `postgres ${env.settings.pgDatabase}`,
        `clickhouse ${env.settings.clickhouseDatabase}`,
      ]);
      expect(lines.every((l) => l.endsWith('up to date'))).toBe(true);
      const json = JSON.parse(
        (await tidemark(['migrate', 'status', '--json'], { ...asOperator, TIDEMARK_URL: app.gateway!.url })).stdout,
      ) as { pending: string[]; applied: string[] }[];
      expect(json.every((m) => m.pending.length === 0 && m.applied.length > 0)).toBe(true);
    } finally {
      await dev.stop();
    }
  });

  it('names the problem when the token is refused or the gateway is not there', async () => {
    const bad = await tidemark(['migrate', 'status'], { ...asOperator, TIDEMARK_TOKEN: 'not.a.validtoken' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^tidemark: UNAUTHENTICATED: .* \(request [0-9a-f-]{36}\)\n$/);
    const away = await tidemark(['migrate', 'status', '--url', 'http://127.0.0.1:1/graphql'], asOperator);
    expect(away.code).toBe(1);
    expect(away.stderr).toContain('cannot reach the gateway at http://127.0.0.1:1/graphql');
    const noToken = await tidemark(['migrate', 'status'], { TIDEMARK_ENV: 'test', TIDEMARK_URL: app.gateway!.url });
    expect(noToken.stderr).toContain('no token: pass --token or set TIDEMARK_TOKEN');
  });
});
