// The stack manager against this machine: `up` is idempotent (a second run reuses every running
// engine and changes nothing), `status` reports each engine, and a dead address reads as DOWN.
import { loadSettings } from '../config/settings';
import { stackServices, stackStatus, stackUp } from './stack';
import { listens, tcpAnswers } from './system';

describe('local stack manager', () => {
  const settings = loadSettings({ ...process.env, LOG_LEVEL: 'silent' });

  it('brings everything up twice without changing anything the second time', async () => {
    const lines: string[] = [];
    const services = stackServices(settings, (l) => lines.push(l));
    await stackUp(services);
    lines.length = 0;
    const progress: string[] = [];
    await stackUp(services, (l) => progress.push(l));
    // Nothing to install, format, start or provision (the application users log in): every engine was reused.
    expect(lines.filter((l) => /starting|formatting|install|provisioning/.test(l))).toEqual([]);
    // One progress line per engine.
    expect(progress.map((l) => l.split(/\s+/)[0]).sort()).toEqual(['clickhouse', 'kafka', 'mysql', 'postgres']);
    expect(progress.every((l) => / ready \(\d+\.\d s\)$/.test(l))).toBe(true);
    const st = await stackStatus(services);
    expect(st.map((s) => s.name)).toEqual(['mysql', 'postgres', 'kafka', 'clickhouse']);
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
  }, 30000);

  it('probes an engine that is not there without printing knex stack traces', async () => {
    const printed: unknown[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((m) =>
      jest.spyOn(console, m).mockImplementation((...a: unknown[]) => void printed.push(a)),
    );
    try {
      const st = await stackStatus(stackServices({ ...settings, mysqlPort: 1, pgPort: 1 }).slice(0, 2));
      expect(st.map((x) => x.answers)).toEqual([false, false]);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(printed).toEqual([]);
  }, 30000);
});
