// `npm start -- --clickhouse embedded`, as a user runs it (on the stack npm test brought up): the built
// process opens ClickHouse 26 inside itself (chdb, its own data directory), migrates and runs every role. The teacher
// story then goes through it end to end: 2.21 recorded, corrected to 2.31, the lookup FRESH with 2.310,
// and the report showing the corrected value once.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { settingsTable, settingsToEnv, type Settings } from '../../src/config/settings';
import { embeddedClickHousePath, repoRoot } from '../../src/config/paths';
import { waitFor } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  FitnessReportByDocument,
  FitnessResultByIdDocument,
  RecordFitnessResultDocument,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { captureText } from '../support/logCapture';
import { createDatabases, dropDatabases, testSettings, uniqueSuffix } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(300000);

describe('npm start with the embedded ClickHouse', () => {
  let settings: Settings;
  let child: ChildProcess | undefined;
  let exited: Promise<void>;
  let url = '';
  let output = '';

  beforeAll(async () => {
    settings = testSettings({ clickhouseEngine: 'embedded', clickhouseEmbeddedPath: `.tidemark/engines/ch-start-${uniqueSuffix()}` });
    await createDatabases(settings);
    // Only the machine's environment without any Tidemark setting, then exactly this test's settings.
    const ours = new Set(Object.values(settingsTable).map((d) => d.env));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ours.has(k)));
    // The suite's stack is up already (npm test starts it); the process opens its embedded ClickHouse itself.
    const env = { ...base, ...settingsToEnv(settings), CLICKHOUSE_ENGINE: 'server', LOG_LEVEL: 'info' };
    // Its own process group: npm runs `build && node dist/src/main.js` through a shell, and a signal must
    // reach the node process itself (as Ctrl-C in a terminal does).
    child = spawn('npm', ['start', '--', '--clickhouse', 'embedded'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    exited = new Promise((done) => child!.once('exit', () => done()));
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    // The gateway logs its address once every role runs (HTTP_PORT=0: a free port).
    const ready = () => /Tidemark GraphQL ready at (http:\/\/[^"\s]+)/.exec(output)?.[1];
    const died = exited.then(() => {
      throw new Error(`npm start exited before serving GraphQL:\n${output.slice(-3000)}`);
    });
    url = await Promise.race([waitFor(ready, { timeoutMs: 240000, intervalMs: 250, what: 'npm start to serve GraphQL' }), died]);
    died.catch(() => undefined); // it exits at the end of the test, on purpose
  });
  afterAll(async () => {
    if (child?.pid && groupAlive(child.pid)) {
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    }
    captureText('npm-start', output); // what npm start printed, for the run's log check (logCapture.ts)
    await dropDatabases({ ...settings, clickhouseEngine: 'server' }).catch(() => undefined);
    rmSync(embeddedClickHousePath(settings), { recursive: true, force: true });
  });

  it('serves the teacher story on ClickHouse 26: record 2.21, correct to 2.31, FRESH lookup, report', async () => {
    expect(output).toContain(`"clickhouse":"embedded ClickHouse at ${embeddedClickHousePath(settings)}"`);
    const client = await authHeader(settings, 'service');
    // An operator's report shows every group (an analyst's would suppress this one-student group).
    const reporter = await authHeader(settings, 'operator');
    const jump = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, unit: 'm' };

    const rec = await execute(url, RecordFitnessResultDocument, { input: { ...jump, result: '2.21' } }, client);
    expect(rec.errors).toBeUndefined();
    const dataId = rec.data!.recordFitnessResult.result.dataId;
    const cor = await execute(url, CorrectFitnessResultDocument, { dataId, expectedVersion: 1, result: '2.31', unit: 'm' }, client);
    expect(cor.errors).toBeUndefined();

    const lookup = await waitFor(
      async () => {
        const r = (await execute(url, FitnessResultByIdDocument, { dataId }, client)).data?.fitnessResult;
        return r?.freshness.status === 'FRESH' && r.result?.version === 2 && r;
      },
      { timeoutMs: 60000, intervalMs: 200, what: 'the correction FRESH' },
    );
    expect(lookup).toMatchObject({
      result: { dataId, result: '2.310', version: 2, unit: 'm' },
      freshness: { status: 'FRESH', reason: 'UP_TO_DATE' },
    });

    const report = await waitFor(
      async () => {
        const by = { detectId: jump.detectId, projectId: jump.projectId, groupBy: 'SCHOOL' as const };
        const r = (await execute(url, FitnessReportByDocument, by, reporter)).data?.fitnessReport;
        return r?.freshness.status === 'FRESH' && r.groups.length > 0 && r;
      },
      { timeoutMs: 60000, intervalMs: 200, what: 'the report FRESH' },
    );
    expect(report.groups).toEqual([
      { key: 77, unit: 'm', count: 1, min: '2.310', max: '2.310', average: '2.310', p50: '2.310', p90: '2.310', p99: '2.310' },
    ]);

    process.kill(-child!.pid!, 'SIGTERM');
    await waitFor(() => !groupAlive(child!.pid!), { timeoutMs: 60000, what: 'npm start to stop' });
    expect(output).toContain('draining and stopping');
    expect(output).not.toMatch(/stop failed|Tidemark failed/);
  });
});

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
