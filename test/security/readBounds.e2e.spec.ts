// The server-side bounds of every gateway read (issue #29) on a real ClickHouse server: a report the
// server stops at READ_MAX_MEMORY_BYTES reaches the GraphQL client as READ_TOO_EXPENSIVE (not retriable)
// with none of ClickHouse's text, while a lookup under the same bound is answered. (Memory is the bound a
// test can hit without timing; READ_MAX_EXECUTION_SECONDS's stop takes the same path in readModelStore.)
// The bound is the setting's validated minimum, 10 MB, so no minimum is lowered for the test: on 18.16
// the report's latest-state grouping over 200,000 results needs 57 MB or more (1 to 16 threads), the
// lookup of one result about 4.5 MB. A narrow report is no contrast: detect_id is not in the sort key, so
// it scans the table too, and 18.16's read buffers alone pass 10 MB. The embedded engine (chdb) runs
// reads without bounds: there the test is skipped.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident } from '../../src/infra/clickhouse/literal';
import { executeRaw } from '../support/graphqlClient';
import { itWithClickHouseServer } from '../support/clickhouseServerOnly';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(180000);

/** READ_MAX_MEMORY_BYTES's smallest accepted value (settings.ts). */
const MIN_READ_MEMORY_BYTES = 10_000_000;
const CAMPAIGN = 7001;
const PROJECT = 3;

describe('read bounds', () => {
  let env: TestEnv;
  let app: Tidemark;
  let op: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark({ ...env.settings, roles: ['gateway'], readMaxMemoryBytes: MIN_READ_MEMORY_BYTES }, { migrate: false });
    op = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  /** Results 1..count of one campaign, written straight into the read model as the projector would. */
  async function project(count: number) {
    const at = "toDateTime('2026-01-05 10:00:00', 'UTC')";
    const ms = 1767607200000;
    await env.resources.clickhouse.command({
      query: `INSERT INTO ${ident(env.settings.clickhouseDatabase)}.fitness_results
        (data_id, detect_id, user_id, project_id, school_id, grade, result, unit, version, is_deleted,
         created_at, created_at_ms, source_commit_at, source_commit_ms, ingested_at, ingested_at_ms, event_id, shard)
        SELECT 1 + number, ${CAMPAIGN}, 1 + number, ${PROJECT}, 100 + number % 50, 5,
          toDecimal64(number % 1000, 3), 'm', 1, 0, ${at}, ${ms}, ${at}, ${ms}, ${at}, ${ms}, toString(number), 0
        FROM system.numbers LIMIT ${count}`,
    });
  }

  itWithClickHouseServer(
    'answers a read stopped by the server at its memory bound as READ_TOO_EXPENSIVE, with no ClickHouse text',
    async () => {
      await project(200_000);
      const report = `{ fitnessReport(detectId: ${CAMPAIGN}, projectId: ${PROJECT}, groupBy: SCHOOL) { groups { key count } } }`;
      const big = await executeRaw(app.gateway!.url, report, undefined, op);
      expect(big.errors).toEqual([
        {
          message: 'the read exceeded its time or memory bound: narrow the filter',
          path: ['fitnessReport'],
          locations: [expect.anything()],
          extensions: expect.objectContaining({ code: 'READ_TOO_EXPENSIVE', retriable: false }) as unknown,
        },
      ]);
      expect(JSON.stringify(big)).not.toMatch(/Code: \d+|DB::|Exception|Memory limit|max_memory_usage|fitness_results|MiB/);

      // Under the same bound, a read of one result (its granule only: data_id is the sort key) is answered.
      const one = await executeRaw(app.gateway!.url, '{ fitnessResult(dataId: "42") { result { dataId } } }', undefined, op);
      expect(one).toMatchObject({ status: 200, data: { fitnessResult: { result: { dataId: '42' } } } });
    },
  );
});
