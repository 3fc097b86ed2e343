// The Docker image, without a Docker engine: the Dockerfile replayed instruction by instruction
// (dockerfile.ts) into clean folders, then every role and the operator CLI run from the runtime stage's
// folder alone, in production, against the shared engines (this suite's own databases and topics). The
// replay runs `npm ci` and the build for real (npm's cache is reused, prefer-offline), so it is slow.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../src/devstack/stack';
import { settingsToEnv } from '../../src/config/settings';
import { waitFor } from '../../src/shared/lifecycle';
import { freePortWith } from '../faults/support/privateEngines';
import { executeRaw } from '../support/graphqlClient';
import { captureFile } from '../support/logCapture';
import { createTestEnv, TEST_JWT_SECRET, type TestEnv } from '../support/testEnv';
import { replayDockerfile, type Replay } from './dockerfile';

jest.setTimeout(45 * 60 * 1000);

const exec = promisify(execFile);
const ROLES = ['gateway', 'relay', 'projector', 'reconciler'] as const;

interface RoleRun {
  child: ChildProcess;
  opsUrl: string;
  url?: string;
  log: string;
}

describe('the Docker image, replayed from the Dockerfile', () => {
  let root: string;
  let image: Replay;
  let app: string;
  let env: TestEnv;
  /** What `docker run -e ...` would add: this suite's stores, production's secret and the compose file's opt-in. */
  let runEnv: Record<string, string>;
  const roles = new Map<string, RoleRun>();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tidemark-image-'));
    image = await replayDockerfile({ context: repoRoot, root, runEnv: { npm_config_prefer_offline: 'true' } });
    app = image.folders.get('final')!;
    env = await createTestEnv();
    const ours = settingsToEnv(env.settings);
    // The image's ENV (STACK_MANAGE, NODE_ENV, hosts) must do its part: docker run gives only the rest.
    for (const k of [...Object.keys(image.env), 'TIDEMARK_ENV', 'AUTH_JWT_SECRET', 'HTTP_PORT', 'OPS_PORT', 'TIDEMARK_ROLES'])
      delete ours[k];
    runEnv = { ...ours, AUTH_JWT_SECRET: TEST_JWT_SECRET, ALLOW_INSECURE_TRANSPORT: 'true', LOG_LEVEL: 'info' };
  });

  afterAll(async () => {
    for (const r of roles.values()) r.child.kill('SIGKILL');
    await env?.cleanup();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** A process in the image: only PATH and HOME of this machine, the image's ENV, then `docker run -e`. */
  const inImage = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...image.env,
    ...runEnv,
    ...extra,
  });

  async function startRole(role: string): Promise<RoleRun> {
    const opsPort = await freePortWith([], 50000, 59000);
    const httpPort = await freePortWith([], 40000, 49000);
    const log = join(root, `${role}.log`);
    const [command, ...args] = image.cmd;
    const child = spawn(command!, [...args, '--roles', role], {
      cwd: app,
      env: inImage({ HTTP_PORT: String(httpPort), OPS_PORT: String(opsPort), TIDEMARK_INSTANCE_ID: `image-${role}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const captured = captureFile(`image-${role}`);
    for (const sink of [createWriteStream(log), ...(captured ? [createWriteStream(captured)] : [])]) {
      child.stdout!.pipe(sink);
      child.stderr!.pipe(sink);
    }
    const run = {
      child,
      log,
      opsUrl: `http://127.0.0.1:${opsPort}`,
      ...(role === 'gateway' ? { url: `http://127.0.0.1:${httpPort}/graphql` } : {}),
    };
    roles.set(role, run);
    return run;
  }

  async function tidemark(args: string[], extra: Record<string, string> = {}) {
    return exec(join(app, 'node_modules', '.bin', 'tidemark'), args, { cwd: app, env: inImage(extra), timeout: 120000 });
  }

  it('ships only what runs: dist, production dependencies (patched), the CLI, no sources', () => {
    expect(readdirSync(app).sort()).toEqual(['.tidemark', 'bin', 'dist', 'node_modules', 'package.json']);
    expect(image.user).toBe('node');
    expect(image.env).toMatchObject({ NODE_ENV: 'production', TIDEMARK_ENV: 'production', STACK_MANAGE: 'false' });
    // No package the lock file marks dev-only (some devDependencies, e.g. @types/node, are also needed by production ones).
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages).filter(([p, e]) => e.dev && p.startsWith('node_modules/'));
    expect(devOnly.map(([p]) => p)).toEqual(expect.arrayContaining(['node_modules/jest', 'node_modules/typescript', 'node_modules/vite']));
    expect(devOnly.filter(([p]) => existsSync(join(app, p))).map(([p]) => p)).toEqual([]);
    // Every line a patch (patch-package, postinstall) adds is in the image's copy of that file.
    for (const file of readdirSync(join(repoRoot, 'patches'))) {
      const patch = readFileSync(join(repoRoot, 'patches', file), 'utf8');
      for (const part of patch.split(/^diff --git /m).slice(1)) {
        const target = /^\+\+\+ b\/(\S+)$/m.exec(part)![1]!;
        const added = part.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++') && l.trim() !== '+');
        const shipped = readFileSync(join(app, target), 'utf8');
        expect(added.filter((l) => !shipped.includes(l.slice(1)))).toEqual([]);
      }
    }
  });

  it('runs every role in production to /readyz 200, and the gateway answers GraphQL', async () => {
    // The CLI mints the token the gateway verifies (same AUTH_JWT_SECRET, production).
    const token = (await tidemark(['token', '--role', 'operator'])).stdout.trim();
    const started = await Promise.all(ROLES.map(startRole));
    for (const [i, r] of started.entries()) {
      await waitFor(
        async () => {
          if (r.child.exitCode !== null) throw new Error(`${ROLES[i]} exited with ${r.child.exitCode}`);
          // /readyz is 503 `starting` until the roles run; main.ts's start line says so too.
          if (!/Tidemark GraphQL ready|Tidemark running/.test(readFileSync(r.log, 'utf8'))) return false;
          return (await fetch(`${r.opsUrl}/readyz`)).status === 200;
        },
        { timeoutMs: 180000, intervalMs: 500, what: `${ROLES[i]} started and /readyz 200` },
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${readFileSync(r.log, 'utf8').split('\n').slice(-15).join('\n')}`);
      });
    }
    const gateway = roles.get('gateway')!;
    const q = await executeRaw(gateway.url!, '{ publications(domain: orders, first: 1) { nodes { eventId } } }', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(q).toMatchObject({ status: 200, data: { publications: { nodes: [] } } });
    expect(q.errors).toBeUndefined();
    const unauthenticated = await executeRaw(gateway.url!, '{ publications(domain: orders, first: 1) { nodes { eventId } } }');
    expect(unauthenticated.errors?.length).toBeGreaterThan(0);

    // The operator CLI from the image: help, and a real command against that gateway.
    const help = await tidemark(['--help']);
    for (const c of ['token', 'reconcile', 'migrate']) expect(help.stdout).toContain(`  ${c}`);
    const status = await tidemark(['migrate', 'status'], { TIDEMARK_URL: gateway.url!, TIDEMARK_TOKEN: token });
    expect(status.stderr).toBe('');
    const lines = status.stdout.trim().split('\n');
    expect(lines).toHaveLength(env.settings.fitnessShardDatabases.length + 2);
    expect(lines.every((l) => l.endsWith('up to date'))).toBe(true);
  });

  it('stops every role on SIGTERM', async () => {
    const exits = [...roles.values()].map((r) => new Promise<number | null>((done) => r.child.once('exit', (code) => done(code))));
    for (const r of roles.values()) r.child.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual(ROLES.map(() => 0));
  });
});
