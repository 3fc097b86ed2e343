// Recovery of rebuilds whose process died, on the real engines (MariaDB shards, PostgreSQL ledger,
// ClickHouse: 18.16, where the swap is a RENAME, and the embedded current release, where it is an
// EXCHANGE of Atomic tables). Each crash point is staged with the rebuild's own pieces, run up to that
// point and then abandoned (a RUNNING row whose heartbeat is older than the stale age), as a SIGKILL
// leaves it:
//   before the swap  (LOAD done) the shadow is dropped, the live table untouched, FAILED ABANDONED;
//   after the swap   (the swap statement ran, its phase change never recorded) with writes that reached
//                    the old table during the rebuild: resumed, those rows copied over, VERIFIED, the
//                    old table dropped, every row at its latest version;
//   two recoverers   at once: exactly one recovers, the rebuild's repairs are settled once;
//   alive            a rebuild that heart-beats is never taken for a dead one, however long it runs.
import { ident } from '../../infra/clickhouse/literal';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { waitFor } from '../../shared/lifecycle';
import { RESULTS, rowOf } from '../../domains/fitness/store/rows';
import type { FitnessResultState } from '../../domains/fitness/types';
import { REBUILD_TEST_SETTINGS, rebuildHarness } from '../../../test/support/rebuildHarness';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { eventOfState } from '../../domains/fitness/reconciliation/fitnessSource';
import type { RebuildRecord } from '../ledger/records';
import { startRebuild, updateRebuild } from '../ledger/sql/rebuildRows';
import type { RateLimiter } from '../repair/rateLimiter';
import { scopeJson, scopeKey } from '../scope';
import type { CampaignScope } from '../../domains/fitness/reconciliation/campaignScope';
import { projectionMappingOf } from '../target/projectionMapping';
import { projectionLineOf } from './projectionLines';
import { startProjectionRebuild } from './rebuildProjection';
import { recordShadowUuid } from './rebuildLiveness';
import { recoverAbandonedRebuilds } from './recoverRebuilds';
import { copyOutsideScope } from './sql/copyRows';
import { createShadow, swapTables } from './sql/shadowTables';

const LIVE = 'fitness_results';
const m = projectionMappingOf('fitness');

describe('recovery of a rebuild whose process died', () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv(REBUILD_TEST_SETTINGS);
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  const harness = rebuildHarness(() => env);
  const { ch, db, layout, tables, liveContent } = harness;
  const pg = () => env.resources.pg;
  async function campaign(detectId: number, count = 8): Promise<{ scope: CampaignScope; states: FitnessResultState[] }> {
    const scope = await harness.campaign(detectId, count);
    return { scope, states: harness.statesOf(detectId) };
  }
  async function serverVersion(): Promise<string> {
    const rs = await ch().query({ query: 'SELECT version() AS v', format: 'JSONEachRow' });
    return (await rs.json<{ v: string }>())[0]!.v;
  }
  /** Latest version per data id in the live table, as readers see it. */
  async function latestVersions(): Promise<Map<string, number>> {
    const rs = await ch().query({
      query: `SELECT toString(data_id) AS id, max(version) AS v FROM ${ident(db())}.${LIVE} GROUP BY data_id`,
      format: 'JSONEachRow',
    });
    return new Map((await rs.json<{ id: string; v: string | number }>()).map((r) => [r.id, Number(r.v)]));
  }

  // The verification after a swap is the service's (the snapshot rule): the harness's deps.
  const deps = harness.deps;

  /**
   * The rebuild's own pieces up to `upTo`, then abandoned as a SIGKILL leaves it: the row RUNNING in its
   * last recorded phase, its heartbeat older than the stale age. `duringRebuild` runs after LOAD (writes
   * that reach the old live table while the shadow is validated).
   */
  async function crashedRebuild(scope: CampaignScope, upTo: 'LOAD' | 'SWAP', duringRebuild?: () => Promise<void>): Promise<number> {
    const d = deps();
    const now = () => new Date();
    const row = { domain: 'fitness' as const, scopeKey: scopeKey(scope), scope: scopeJson(scope), requestedBy: 'test', reason: 'crash' };
    const started = await startRebuild(pg(), { ...row, shadowTable: `${LIVE}__pending` }, now(), d.staleAfterMs);
    const shadow = `${LIVE}__rebuild_${started.id}`;
    await updateRebuild(pg(), started.id, { shadow_table: shadow, phase: 'SHADOW' }, now());
    await createShadow(ch(), layout(), db(), LIVE, shadow);
    await recordShadowUuid(d, started.id, shadow);
    await updateRebuild(pg(), started.id, { phase: 'COPY' }, now());
    await copyOutsideScope(ch(), db(), LIVE, shadow, m, scope);
    await updateRebuild(pg(), started.id, { phase: 'LOAD' }, now());
    const events = await d.source.events(scope);
    await insertJsonEachRow(
      ch(),
      db(),
      shadow,
      events.map((e) => projectionLineOf(e, Date.now())),
    );
    await duringRebuild?.();
    if (upTo === 'SWAP') {
      await updateRebuild(pg(), started.id, { phase: 'SWAP' }, now());
      await swapTables(ch(), layout(), db(), LIVE, shadow, `${LIVE}__retired_${started.id}`);
    }
    await pg()('projection_rebuilds')
      .where({ id: started.id })
      .update({ heartbeat_at: new Date(Date.now() - d.staleAfterMs - 1000) });
    return started.id;
  }

  /** A correction committed to the shard and projected into the live table (the projector's part). */
  async function correct(s: FitnessResultState): Promise<FitnessResultState> {
    const next = { ...s, version: s.version + 1, result: '42.000', updatedAt: new Date() };
    await env.resources.mysql.shards[s.shard]!.db(RESULTS).where({ data_id: s.dataId }).update(rowOf(next));
    await insertJsonEachRow(ch(), db(), LIVE, [projectionLineOf(eventOfState(next), Date.now())]);
    return next;
  }

  it('rolls back a rebuild that died before its swap: shadow dropped, live table untouched, FAILED ABANDONED', async () => {
    const { scope } = await campaign(62001);
    const before = await liveContent();
    const id = await crashedRebuild(scope, 'LOAD');
    expect(await tables()).toEqual([LIVE, `${LIVE}__rebuild_${id}`]);
    const finished: RebuildRecord[] = [];
    const recovered = await recoverAbandonedRebuilds(deps({}, finished));
    expect(recovered.map((r) => r.id)).toEqual([id]);
    expect(recovered[0]).toMatchObject({ status: 'FAILED', phase: 'LOAD', errorCode: 'ABANDONED', retiredTable: null, swappedAt: null });
    expect(recovered[0]!.errorSummary).toMatch(/^rolled back: .*readers never left the live table/);
    expect(finished.map((f) => [f.id, f.status])).toEqual([[id, 'FAILED']]);
    expect(await tables()).toEqual([LIVE]);
    expect(await liveContent()).toBe(before);
  });

  it('resumes a rebuild that died right after its swap: late rows copied, VERIFIED, the old table dropped, every row at its latest version', async () => {
    const { scope, states } = await campaign(62002);
    const other = await campaign(62003, 4);
    let latest = [...states, ...other.states];
    const id = await crashedRebuild(scope, 'SWAP', async () => {
      // Written during the rebuild, after its LOAD: they reached the old live table only.
      const changed = [await correct(states.find((s) => !s.isDeleted)!), await correct(other.states[0]!)];
      latest = latest.map((s) => changed.find((c) => c.dataId === s.dataId) ?? s);
    });
    // The swap this engine did: 18.16 renames the live table away; current releases exchange the two,
    // and only the recorded shadow UUID, now under the live name, tells that it happened.
    const exchanged = !(await serverVersion()).startsWith('18.');
    const row = (await pg()('projection_rebuilds').where({ id }).first()) as { shadow_uuid: string | null };
    expect({ tables: await tables(), shadowUuidRecorded: row.shadow_uuid !== null }).toEqual({
      tables: [LIVE, exchanged ? `${LIVE}__rebuild_${id}` : `${LIVE}__retired_${id}`],
      shadowUuidRecorded: exchanged,
    });
    const finished: RebuildRecord[] = [];
    const [r] = await recoverAbandonedRebuilds(deps({}, finished));
    expect(r).toMatchObject({ id, status: 'VERIFIED', phase: 'DONE', retiredTable: null, errorCode: null });
    expect(r!.swappedAt).not.toBeNull();
    expect(r!.validation).toMatchObject({ verification: { outcome: 'CLEAN' }, recovery: { resumed: true } });
    expect(finished.map((f) => [f.id, f.status])).toEqual([[id, 'VERIFIED']]);
    expect(await tables()).toEqual([LIVE]);
    const versions = await latestVersions();
    expect(latest.map((s) => [String(s.dataId), versions.get(String(s.dataId))])).toEqual(latest.map((s) => [String(s.dataId), s.version]));
  });

  it('lets exactly one of two concurrent recoverers recover a rebuild', async () => {
    const { scope } = await campaign(62004);
    const id = await crashedRebuild(scope, 'SWAP');
    const [first, second]: RebuildRecord[][] = [[], []];
    const [a, b] = await Promise.all([recoverAbandonedRebuilds(deps({}, first)), recoverAbandonedRebuilds(deps({}, second))]);
    expect([...a, ...b].map((r) => [r.id, r.status])).toEqual([[id, 'VERIFIED']]);
    expect([...first, ...second].map((f) => f.id)).toEqual([id]);
    expect(await recoverAbandonedRebuilds(deps())).toEqual([]);
    expect(await tables()).toEqual([LIVE]);
  });

  it('never takes a rebuild that heart-beats for a dead one, however long it runs', async () => {
    const { scope } = await campaign(62005);
    const staleAfterMs = 1000;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let loading = false;
    // LOAD waits here, far longer than the stale age, while the process is alive and heart-beating.
    const limiter: RateLimiter = {
      async acquire() {
        loading = true;
        await held;
      },
    };
    const started = await startProjectionRebuild(deps({ staleAfterMs, limiter }), scope, 'test', 'long load');
    await waitFor(() => loading, { timeoutMs: 30000, what: 'the rebuild to reach LOAD' });
    const since = Date.now();
    const recoveries: RebuildRecord[][] = [];
    await waitFor(
      async () => {
        recoveries.push(await recoverAbandonedRebuilds(deps({ staleAfterMs })));
        return Date.now() - since > 3 * staleAfterMs;
      },
      { timeoutMs: 30000, intervalMs: 200, what: 'three stale ages of a live rebuild' },
    );
    expect(recoveries.flat()).toEqual([]);
    release();
    expect(await started.done).toMatchObject({ id: started.record.id, status: 'VERIFIED' });
  });
});
