// The ClickHouse store of an erasure on the real engine (the server, 18.16 here; `npm run test:engines`
// runs it again on the embedded 26.7): two students' results in several versions, in the projection,
// a rebuild's shadow and retired table, and a dead letter each; erasing the first removes every row of
// its aggregates everywhere and leaves the second's, and a student who came back (a result written
// after the erasure started) is neither erased nor found. Afterwards the projector's writer, guarded by
// the writers' cache, writes nothing of the erased aggregates (not even a dead letter).
import { writeFileSync } from 'node:fs';
import type { Producer } from 'kafkajs';
import type { ErasureJob } from '../../domains/contract/erasure';
import { FITNESS_RESULTS, type FitnessRow } from '../../domains/fitness/projection/fitnessResultsTable';
import { clickhouseLayout } from '../../infra/clickhouse/layout';
import { erasedAggregatesCache } from '../../projections/erased/erasedAggregatesCache';
import { fromProjectionWriter } from '../../projections/projectionWriter';
import { insertDeadLetters, storedOf } from '../../projections/sql/insertDeadLetters';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { rowLine } from '../../projections/sql/insertRows';
import type { DeadLetter } from '../../projections/rows';
import { copyLateRows } from '../../reconciliation/rebuild/sql/copyRows';
import { createShadow } from '../../reconciliation/rebuild/sql/shadowTables';
import type { Scope } from '../../reconciliation/scope';
import { projectionMappingOf } from '../../reconciliation/target/projectionMapping';
import { systemClock } from '../../shared/clock';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessEvent } from '../../../test/support/projectionEvents';
import { projectedRows } from '../../../test/support/projectedRows';
import { clickhouseErasure } from './clickhouseErasure';
import { erasableProjection } from './erasableProjection';
import { countWhere } from './sql/countAggregateRows';

const REFRESH_MS = 150;
const [A, B] = [7001, 7002];
const LIVE = 'fitness_results';
const TABLES = [LIVE, `${LIVE}__shadow_9`, `${LIVE}__retired_8`];

function rowsOf(userId: number, dataIds: number[], versions: number, updatedAt?: string): FitnessRow[] {
  const events = dataIds.flatMap((dataId) =>
    Array.from({ length: versions }, (_, i) =>
      fitnessEvent({ dataId, detectId: 1, userId, projectId: 3, schoolId: 4, grade: 5, result: `${i + 1}.5`, version: i + 1, updatedAt }),
    ),
  );
  return projectedRows<FitnessRow>(events);
}

function deadLetterOf(aggregateId: string, offset: string): DeadLetter {
  return {
    domain: 'fitness',
    reason: 'INVALID_ENVELOPE',
    detail: 'data.result',
    sourceTopic: 'fitness-events',
    sourcePartition: 0,
    sourceOffset: offset,
    key: Buffer.from(aggregateId),
    value: Buffer.from(JSON.stringify({ eventId: `e-${offset}`, aggregateId, version: 4 })),
    headers: {},
  };
}

describe('clickhouseErasure', () => {
  let env: TestEnv;
  const ch = () => env.resources.clickhouse;
  const db = () => env.settings.clickhouseDatabase;
  const rowsIn = (table: string, ids: string) => countWhere(ch(), db(), table, `data_id IN (${ids})`);

  beforeAll(async () => {
    env = await createTestEnv();
  });

  afterAll(async () => {
    await env?.cleanup();
  });

  it('erases every row of the aggregates everywhere, keeps the others, and the guard keeps them out', async () => {
    const layout = clickhouseLayout(env.settings);
    for (const t of TABLES.slice(1)) await createShadow(ch(), layout, db(), LIVE, t);
    const rows = [...rowsOf(A, [101, 102], 3), ...rowsOf(B, [201, 202], 3)];
    // One insert per version, as the projector's flushes write them: 26.7 collapses the versions of one
    // insert block of a ReplacingMergeTree at insert time (optimize_on_insert), so each would leave one row.
    for (const t of TABLES)
      for (const v of [1, 2, 3])
        await insertJsonEachRow(
          ch(),
          db(),
          t,
          rows.filter((r) => r.version === v).map((r) => rowLine(FITNESS_RESULTS, r)),
        );
    await insertDeadLetters(ch(), db(), [storedOf('c', deadLetterOf('101', '5'), 1), storedOf('c', deadLetterOf('201', '6'), 1)]);

    const startedAt = new Date();
    // The student comes back after the request: a new result, written after startedAt.
    const back = rowsOf(A, [103], 1, new Date(startedAt.getTime() + 60000).toISOString());
    await insertJsonEachRow(
      ch(),
      db(),
      LIVE,
      back.map((r) => rowLine(FITNESS_RESULTS, r)),
    );

    const job: ErasureJob = {
      erasureId: 'er-1',
      kind: 'student',
      mode: 'delete',
      subjectId: String(A),
      domain: 'fitness',
      aggregateIds: ['101', '102'],
      subjectHash: 'h',
      startedAt,
    };
    const store = clickhouseErasure({
      ch: ch(),
      database: db(),
      layout,
      guard: { refreshMs: REFRESH_MS },
      projections: (domain) => erasableProjection(domain, 'userId'),
      clock: systemClock,
    });
    const before = await store.verify(job);
    expect(before.found).toBe(3 * 2 * 3 + 1);

    const t0 = Date.now();
    const step = await store.erase(job);
    const ms = Date.now() - t0;
    expect(step).toEqual({ affected: 3 * 2 * 3 + 1, done: true });
    const engine = String(env.settings.clickhouseEngine);
    writeFileSync(`/tmp/clickhouse-erasure-${engine}.txt`, `erase ${ms} ms (guard wait ${3 * REFRESH_MS} ms)\n`);

    const after = await store.verify(job);
    expect(after).toMatchObject({ store: 'clickhouse', found: 0 });
    expect(after.searched).toEqual([...TABLES, 'projector_dead_letters'].sort());
    for (const t of TABLES) {
      expect(await rowsIn(t, '101, 102')).toBe(0);
      expect(await rowsIn(t, '201, 202')).toBe(6);
    }
    expect(await rowsIn(LIVE, '103')).toBe(1);
    expect(await countWhere(ch(), db(), 'projector_dead_letters', `aggregate_id = '201'`)).toBe(1);
    // Idempotent: a second call finds nothing left (and does not wait again).
    expect(await store.erase(job)).toEqual({ affected: 0, done: true });

    // The projector's writer with the guard: nothing of 101 is written, not even its dead letter
    // (the producer would throw); 201's row is.
    const cache = erasedAggregatesCache({ ch: ch(), database: db(), clock: systemClock, refreshMs: REFRESH_MS });
    const producer = {
      send: () => Promise.reject(new Error('a dead letter of an erased aggregate reached Kafka')),
    } as unknown as Producer;
    const writer = fromProjectionWriter({
      clickhouse: ch(),
      database: db(),
      producer,
      deadLetterTopic: 'dead',
      consumer: 'c',
      clock: systemClock,
      erased: cache,
    });
    const late = [...rowsOf(A, [101], 4), ...rowsOf(B, [201], 4)].filter((r) => r.version === 4);
    await writer.write({
      rows: new Map([[LIVE, late]]),
      deadLetters: [deadLetterOf('102', '7')],
      expired: [],
      checkpoints: [],
      messages: 3,
    });
    expect(cache.isErased('fitness', '101')).toBe(true);
    expect(cache.isErased('fitness', '201')).toBe(false);
    expect(await rowsIn(LIVE, '101, 102')).toBe(0);
    expect(await rowsIn(LIVE, '201')).toBe(4);
    expect((await store.verify(job)).found).toBe(0);

    // A rebuild's copy inside ClickHouse (INSERT ... SELECT, copyRows.ts) skips the erased aggregates
    // even from a table that still held them.
    await insertJsonEachRow(
      ch(),
      db(),
      TABLES[2]!,
      rowsOf(A, [101], 1).map((r) => rowLine(FITNESS_RESULTS, r)),
    );
    await copyLateRows(ch(), db(), TABLES[2]!, LIVE, projectionMappingOf('fitness'), { domain: 'fitness', detectId: 1 } as Scope, 0);
    expect(await rowsIn(LIVE, '101')).toBe(0);
    await store.erase(job);

    // A row of the subject written before the request that is none of the job's aggregates is a trace.
    await insertJsonEachRow(
      ch(),
      db(),
      LIVE,
      rowsOf(A, [104], 1).map((r) => rowLine(FITNESS_RESULTS, r)),
    );
    expect(await store.verify(job)).toMatchObject({ found: 1 });
  });
});
