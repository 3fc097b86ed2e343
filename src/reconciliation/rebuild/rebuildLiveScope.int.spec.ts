// A rebuild of a scope that changes while it runs, on the real engines, with each change made at the
// moment that used to break it:
//   after the validation's snapshot  a correction and a new result of the scope are committed (and
//                                    projected) once the validation opened its source snapshot: the
//                                    shadow holds them newer than the snapshot, so they are excluded and
//                                    counted, not a SCOPE_CHANGED failure; the swapped table holds them;
//   too busy                         the table gains rows faster than the catch-up may apply
//                                    (REBUILD_ROWS_PER_SECOND): SCOPE_TOO_BUSY with both rates, the
//                                    shadow dropped, readers never left the live table.
import { ident, uint } from '../../infra/clickhouse/literal';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { fitnessStates, updateSource, seedSource } from '../../../test/support/reconciliationSeed';
import { REBUILD_TEST_SETTINGS, rebuildHarness } from '../../../test/support/rebuildHarness';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { eventOfState } from '../../domains/fitness/reconciliation/fitnessSource';
import type { SourceReader } from '../../domains/contract/sourceReader';
import type { RateLimiter } from '../repair/rateLimiter';
import { projectionLineOf } from './projectionLines';
import { startProjectionRebuild } from './rebuildProjection';

describe('rebuild of a scope being edited', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv(REBUILD_TEST_SETTINGS);
  });
  afterAll(async () => {
    await env?.cleanup();
  });
  const { hourAgo, campaign, statesOf, ch, db, tables, liveContent, deps } = rebuildHarness(() => env);

  async function latest(dataId: number): Promise<{ version: number; result: string } | undefined> {
    const rs = await ch().query({
      query: `SELECT version, toString(result) AS result FROM ${ident(db())}.fitness_results WHERE data_id = ${uint(dataId)} ORDER BY version DESC LIMIT 1`,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ version: number | string; result: string }>();
    return row && { version: Number(row.version), result: row.result };
  }

  it('excludes what changed after the validation snapshot, swaps, and the live table holds the changes', async () => {
    const scope = await campaign(62001, 12);
    const corrected = {
      ...statesOf(62001).find((s) => !s.isDeleted && s.version === 1)!,
      version: 2,
      result: '7.777',
      updatedAt: new Date(),
    };
    const added = fitnessStates({ detectId: 62001, count: 1, firstSequence: 9100, updatedAt: new Date() }, 2);
    const base = deps();
    let changed = false;
    // The validation opens its snapshot first: the writes land (committed, then projected) right after.
    const source: SourceReader = {
      ...base.source,
      async openSnapshot(s) {
        const snap = await base.source.openSnapshot(s);
        if (!changed) {
          changed = true;
          await updateSource(env.resources, [corrected]);
          await seedSource(env.resources, added);
          await insertJsonEachRow(
            ch(),
            db(),
            'fitness_results',
            [corrected, ...added].map((x) => projectionLineOf(eventOfState(x), Date.now())),
          );
        }
        return snap;
      },
    };
    const r = await (await startProjectionRebuild({ ...base, source }, scope, 'test', 'edited during validation')).done;
    expect(changed).toBe(true);
    expect(r).toMatchObject({ status: 'VERIFIED', phase: 'DONE', errorCode: null, retiredTable: null });
    expect(r.validation).toMatchObject({
      scope: { outcome: 'CLEAN', discrepancies: 0, excludedChangedAfterSnapshot: 2, excludedInFlight: 0 },
      outsideScopeBehind: 0,
      verification: { outcome: 'CLEAN' },
    });
    expect(await latest(corrected.dataId)).toEqual({ version: 2, result: '7.777' });
    expect((await latest(added[0]!.dataId))?.version).toBe(1);
    expect(await tables()).toEqual(['fitness_results']);
  });

  it('stops with SCOPE_TOO_BUSY when the table changes faster than the catch-up may apply, readers untouched', async () => {
    const scope = await campaign(62002);
    // Rows of another campaign reach the live table during the rebuild (the limiter runs after LOAD's read).
    const elsewhere = fitnessStates({ detectId: 62099, count: 40, firstSequence: 9200, updatedAt: hourAgo }, 2);
    let wrote = false;
    const limiter: RateLimiter = {
      async acquire() {
        if (wrote) return;
        wrote = true;
        await insertJsonEachRow(
          ch(),
          db(),
          'fitness_results',
          elsewhere.map((x) => projectionLineOf(eventOfState(x), Date.now())),
        );
      },
    };
    const before = await liveContent();
    const r = await (await startProjectionRebuild(deps({ limiter, limitRowsPerSecond: 1, busyWindowMs: 0 }), scope, 'test', 'busy')).done;
    expect(r).toMatchObject({ status: 'FAILED', phase: 'VALIDATE', errorCode: 'SCOPE_TOO_BUSY', retiredTable: null, swappedAt: null });
    expect(r.errorSummary).toMatch(/changed at \d+ rows\/s during the rebuild .* at most 1 rows\/s \(REBUILD_ROWS_PER_SECOND\)/);
    expect(await tables()).toEqual(['fitness_results']);
    // Readers' table holds what it held plus the other campaign's rows, nothing of a shadow.
    expect(await liveContent()).not.toBe(before);
    for (const s of elsewhere.slice(0, 3)) expect((await latest(s.dataId))?.version).toBe(s.version);
  });
});
