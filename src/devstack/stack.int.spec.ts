// The stack manager against this machine: `up` is idempotent (a second run reuses every running
// engine and changes nothing), `status` reports each engine, and a dead address reads as DOWN. A
// MariaDB server the stack runs itself is brought up, reused, stopped and started again from a
// folder of its own (on a free port, so the shared second server is never touched).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/settings';
import { stackServices, stackStatus, stackUp } from './stack';
import { listens, tcpAnswers } from './system';

describe('local stack manager', () => {
  const settings = loadSettings({ TIDEMARK_ENV: 'test', ...process.env, LOG_LEVEL: 'silent' });

  it('brings everything up twice without changing anything the second time', async () => {
    const lines: string[] = [];
    const services = stackServices(settings, (l) => lines.push(l));
    await stackUp(services);
    lines.length = 0;
    const progress: string[] = [];
    await stackUp(services, (l) => progress.push(l));
    // Nothing to install, format, start or provision (the application users log in): every engine was reused.
    expect(lines.filter((l) => /starting|formatting|install|provisioning/.test(l))).toEqual([]);
    // One progress line per engine, MariaDB once per server (the machine's and the stack's second one).
    expect(progress.map((l) => l.split(/\s+/)[0]).sort()).toEqual(['clickhouse', 'kafka', 'mysql', 'mysql-2', 'postgres']);
    expect(progress.every((l) => / ready \(\d+\.\d s\)$/.test(l))).toBe(true);
    const st = await stackStatus(services);
    expect(st.map((s) => s.name)).toEqual(['mysql', 'mysql-2', 'postgres', 'kafka', 'clickhouse']);
    expect(st.find((s) => s.name === 'mysql-2')?.address).toBe(`127.0.0.1:${settings.stackMysqlSecondPort}`);
    expect(st.every((s) => s.answers)).toBe(true);
  }, 180000);

  it('reports an engine that does not answer as down, without starting anything', async () => {
    const closedPort = 1; // nothing listens on tcpmux
    expect(await tcpAnswers('127.0.0.1', closedPort)).toBe(false);
    // A refused connection is an answer: `listens` does not spend its patient retries on it.
    expect(await listens('127.0.0.1', closedPort)).toBe(false);
    expect(await listens(settings.pgHost, settings.pgPort)).toBe(true);
    const s = { ...settings, kafkaBrokers: [`127.0.0.1:${closedPort}`], clickhouseUrl: `http://127.0.0.1:${closedPort}` };
    const st = await stackStatus(stackServices(s));
    expect(st.find((x) => x.name === 'kafka')).toMatchObject({ address: `127.0.0.1:${closedPort}`, answers: false });
    expect(st.find((x) => x.name === 'clickhouse')).toMatchObject({ answers: false });
    expect(st.find((x) => x.name === 'mysql')).toMatchObject({ answers: true });
    expect(st.find((x) => x.name === 'mysql-2')).toMatchObject({ answers: true });
  }, 30000);

  it('runs a MariaDB server of its own from a folder of its own: initialised once, provisioned, reused, stopped, started', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'tidemark-stack-'));
    const lines: string[] = [];
    const s = { ...settings, stackDir: dir, stackMysqlSecondPort: port };
    const server = stackServices(s, (l) => lines.push(l)).find((x) => x.name === 'mysql-2')!;
    try {
      expect(server.address).toBe(`127.0.0.1:${port}`);
      expect(await server.check()).toBe(false);
      await server.up();
      expect(lines.map((l) => l.split(' ')[0])).toEqual(['initialising', 'starting', 'provisioning']);
      expect(await server.check()).toBe(true);
      lines.length = 0;
      await server.up();
      expect(lines).toEqual([]);
      expect(await server.down()).toBe('stopped');
      expect(await server.check()).toBe(false);
      expect(await server.down()).toBe('not-running');
      // The data folder is kept: started again, nothing is initialised or provisioned.
      await server.up();
      expect(lines.map((l) => l.split(' ')[0])).toEqual(['starting']);
      expect(await server.check()).toBe(true);
    } finally {
      await server.down();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180000);

  it('probes an engine that is not there without printing knex stack traces', async () => {
    const printed: unknown[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((m) =>
      jest.spyOn(console, m).mockImplementation((...a: unknown[]) => void printed.push(a)),
    );
    try {
      const services = stackServices({ ...settings, mysqlPort: 1, pgPort: 1, stackMysqlSecondPort: 2 });
      const st = await stackStatus(services.filter((x) => ['mysql', 'mysql-2', 'postgres'].includes(x.name)));
      expect(st.map((x) => [x.name, x.answers])).toEqual([
        ['mysql', false],
        ['mysql-2', false],
        ['postgres', false],
      ]);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(printed).toEqual([]);
  }, 30000);
});

/** A port nothing listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
