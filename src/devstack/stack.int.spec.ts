// The stack manager against this machine: `up` is idempotent (a second run reuses every running
// engine and changes nothing), `status` reports each engine, and a dead address reads as DOWN.
import { loadSettings } from '../config/settings';
import { stackServices, stackStatus, stackUp } from './stack';
import { tcpAnswers } from './system';

describe('local stack manager', () => {
  const settings = loadSettings({ ...process.env, LOG_LEVEL: 'silent' });

  it('brings everything up twice without changing anything the second time', async () => {
    const lines: string[] = [];
    const services = stackServices(settings, (l) => lines.push(l));
    await stackUp(services);
    lines.length = 0;
    await stackUp(services);
    // Nothing to install, format or start: every engine was reused.
    expect(lines.filter((l) => /starting|formatting|install/.test(l))).toEqual([]);
    const st = await stackStatus(services);
    expect(st.map((s) => s.name)).toEqual(['mysql', 'postgres', 'kafka', 'clickhouse']);
    expect(st.every((s) => s.answers)).toBe(true);
  }, 180000);

  it('reports an engine that does not answer as down, without starting anything', async () => {
    const closedPort = 1; // nothing listens on tcpmux
    expect(await tcpAnswers('127.0.0.1', closedPort)).toBe(false);
    const s = { ...settings, kafkaBrokers: [`127.0.0.1:${closedPort}`], clickhouseUrl: `http://127.0.0.1:${closedPort}` };
    const st = await stackStatus(stackServices(s));
    expect(st.find((x) => x.name === 'kafka')).toMatchObject({ address: `127.0.0.1:${closedPort}`, answers: false });
    expect(st.find((x) => x.name === 'clickhouse')).toMatchObject({ answers: false });
    expect(st.find((x) => x.name === 'mysql')).toMatchObject({ answers: true });
  }, 30000);
});
