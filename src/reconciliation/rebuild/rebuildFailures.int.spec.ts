// The projection rebuild's failure paths on the real engines (MariaDB shards, PostgreSQL ledger,
// ClickHouse), each reached by a real failure or a real write at a chosen moment:
//   before the swap  the authoritative store is unreachable during LOAD: FAILED, the shadow dropped,
//                    readers' live table untouched;
//   validation       an authoritative row no projection holds appears after LOAD (the limiter, called
//                    between the source read and the shadow insert, writes it): VALIDATION_FAILED
//                    before the swap, the shadow dropped, the live table untouched;
//   after the swap   the verification finds a bad row written to the live table after the swap:
//                    FAILED with VERIFICATION_FAILED and the retired table kept for a rollback; and the
//                    verification itself failing (ClickHouse unreachable): FAILED, retired table kept;
//   stale            a RUNNING rebuild without a heartbeat (its process died) refuses the next start until
//                    it is recovered (ABANDONED: recoverRebuilds.int.spec.ts has every crash point); one with
//                    a fresh heartbeat makes the next start a CONFLICT.
// The happy path (validate, swap, verify) runs first so the harness is known to work.
import knex from 'knex';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { fitnessStates, seedSource } from '../../../test/support/reconciliationSeed';
import { REBUILD_TEST_SETTINGS, rebuildHarness } from '../../../test/support/rebuildHarness';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { itWithClickHouseServer } from '../../../test/support/clickhouseServerOnly';
import { compareScope } from '../compareScope';
import { eventOfState, fitnessSource } from '../../domains/fitness/reconciliation/fitnessSource';
import type { RebuildRecord } from '../ledger/records';
import { startRebuild } from '../ledger/sql/rebuildRows';
import type { RateLimiter } from '../repair/rateLimiter';
import { scopeJson, scopeKey } from '../scope';
import { clickhouseTarget } from '../target/clickhouseTarget';
import { projectionLineOf } from './projectionLines';
import { startProjectionRebuild, type RebuildDeps } from './rebuildProjection';
import { recoverAbandonedRebuilds } from './recoverRebuilds';

// knex's own connection-error logging, silenced for the deliberately unreachable shards.
const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined };

describe('projection rebuild failure paths', () => {
  let env: TestEnv;
  let deadShards: knex.Knex[] = [];

  beforeAll(async () => {
    env = await createTestEnv(REBUILD_TEST_SETTINGS);
  });
  afterAll(async () => {
    await Promise.all(deadShards.map((d) => d.destroy()));
    await env?.cleanup();
  });

  const { hourAgo, campaign, statesOf, ch, db, tables, liveContent, deps, unreachableClickHouse } = rebuildHarness(() => env);

  it('validates, swaps and verifies a healthy scope (the harness works)', async () => {
    const scope = await campaign(61001);
    const finished: RebuildRecord[] = [];
    const r = await (await startProjectionRebuild(deps({}, finished), scope, 'test', 'happy path')).done;
    expect(r).toMatchObject({ status: 'VERIFIED', phase: 'DONE', retiredTable: null, errorCode: null, sourceRows: 8 });
    expect(finished.map((f) => f.status)).toEqual(['VERIFIED']);
    expect(await tables()).toEqual(['fitness_results']);
  });

  it('drops the shadow and leaves the live table untouched when the authoritative store fails before the swap', async () => {
    const scope = await campaign(61002);
    const before = await liveContent();
    // The shards' server is unreachable (a closed port): SHADOW and COPY work, LOAD's source read fails.
    deadShards = env.settings.fitnessShardDatabases.map((database) =>
      knex({
        client: 'mysql2',
        connection: { host: '127.0.0.1', port: 1, user: 'x', database, connectTimeout: 500 },
        pool: { min: 0, max: 1 },
        acquireConnectionTimeout: 1500,
        log: quiet,
      }),
    );
    const source = fitnessSource({
      shards: deadShards.map((d, index) => ({ index, database: env.settings.fitnessShardDatabases[index]!, db: d })),
    });
    const finished: RebuildRecord[] = [];
    const started = await startProjectionRebuild(deps({ source }, finished), scope, 'test', 'source down');
    const r = await started.done;
    expect(r).toMatchObject({ status: 'FAILED', phase: 'LOAD', retiredTable: null, swappedAt: null });
    expect(r.errorCode).not.toBeNull();
    expect(r.errorSummary).not.toMatch(/after the swap/);
    expect(finished.map((f) => [f.id, f.status])).toEqual([[r.id, 'FAILED']]);
    // The shadow existed (SHADOW and COPY ran) and is gone; readers never left the live table.
    expect(r.shadowTable).toBe(`fitness_results__rebuild_${r.id}`);
    expect(await tables()).toEqual(['fitness_results']);
    expect(await liveContent()).toBe(before);
  });

  it('fails validation when an authoritative row appears after LOAD that no projection holds: VALIDATION_FAILED, shadow dropped', async () => {
    const scope = await campaign(61003);
    const before = await liveContent();
    const late = fitnessStates({ detectId: 61003, count: 1, firstSequence: 9000, updatedAt: hourAgo }, 2);
    let wrote = 0;
    // Called between the source read and the shadow insert: the moment to change the source.
    const limiter: RateLimiter = {
      async acquire() {
        if (wrote++ === 0) await seedSource(env.resources, late);
      },
    };
    const r = await (await startProjectionRebuild(deps({ limiter }), scope, 'test', 'late source row')).done;
    expect(wrote).toBeGreaterThan(0);
    expect(r).toMatchObject({ status: 'FAILED', phase: 'VALIDATE', errorCode: 'VALIDATION_FAILED', retiredTable: null, swappedAt: null });
    expect(r.validation).toMatchObject({ scope: { outcome: expect.not.stringMatching(/^CLEAN$/) } });
    expect((r.validation as { scope: { discrepancies: number } }).scope.discrepancies).toBeGreaterThan(0);
    expect(await tables()).toEqual(['fitness_results']);
    expect(await liveContent()).toBe(before);
  });

  it('keeps the retired table for a rollback when the verification after the swap finds a bad row: VERIFICATION_FAILED', async () => {
    const scope = await campaign(61004);
    const base = deps();
    const states = statesOf(61004);
    const victim = states.find((s) => !s.isDeleted)!;
    // A bad write reaches the live (rebuilt) table after the swap: same version, other content.
    const verify: RebuildDeps['verify'] = async (s) => {
      await insertJsonEachRow(ch(), db(), 'fitness_results', [
        projectionLineOf(eventOfState({ ...victim, result: '999.000' }), Date.now()),
      ]);
      return base.verify(s);
    };
    const r = await (await startProjectionRebuild({ ...base, verify }, scope, 'test', 'bad write after swap')).done;
    expect(r).toMatchObject({ status: 'FAILED', phase: 'VERIFY', errorCode: 'VERIFICATION_FAILED' });
    expect(r.swappedAt).not.toBeNull();
    expect(r.errorSummary).toMatch(/retired table kept for rollback/);
    expect(r.validation).toMatchObject({ verification: { outcome: 'DISCREPANCIES' } });
    // The retired table (the pre-rebuild live data) is kept, beside the new live table.
    expect(r.retiredTable).toMatch(/^fitness_results__(retired|rebuild)_\d+$/);
    expect(await tables()).toEqual(['fitness_results', r.retiredTable].sort());
  });

  itWithClickHouseServer('keeps the retired table when the verification itself fails after the swap (ClickHouse unreachable)', async () => {
    const scope = await campaign(61005);
    const base = deps();
    const unreachable = unreachableClickHouse();
    const deadTarget = clickhouseTarget(unreachable, db(), 'fitness');
    const verify: RebuildDeps['verify'] = (s) =>
      compareScope({ ...base.compare, source: base.source, target: deadTarget }, s, 'CONTENT', false);
    const before = await tables();
    try {
      const r = await (await startProjectionRebuild({ ...base, verify }, scope, 'test', 'verification fails')).done;
      expect(r).toMatchObject({ status: 'FAILED', phase: 'VERIFY' });
      expect(r.errorCode).toMatch(/ECONNREFUSED/);
      expect(r.errorSummary).toMatch(/^after the swap \(retired table kept\)/);
      expect(r.retiredTable).toMatch(/^fitness_results__(retired|rebuild)_\d+$/);
      expect(await tables()).toEqual([...before, r.retiredTable].sort());
    } finally {
      await unreachable.close();
    }
  });

  it('recovers a rebuild whose process stopped heart-beating (ABANDONED) before the next may start; a live one makes it a CONFLICT', async () => {
    const scope = await campaign(61006);
    const row = {
      domain: 'fitness' as const,
      scopeKey: scopeKey(scope),
      scope: scopeJson(scope),
      shadowTable: 'fitness_results__pending',
      requestedBy: 'crashed',
      reason: 'crashed',
    };
    const staleAfterMs = env.settings.rebuildStaleAfterMs;
    // A live rebuild (fresh heartbeat) of the same domain: the next start is refused, typed and retriable.
    const live = await startRebuild(env.resources.pg, row, new Date(), staleAfterMs);
    await expect(startProjectionRebuild(deps(), scope, 'test', 'second')).rejects.toMatchObject({ code: 'CONFLICT', retriable: true });
    // Its process dies: no heartbeat for longer than REBUILD_STALE_AFTER_MS.
    await env.resources
      .pg('projection_rebuilds')
      .where({ id: live.id })
      .update({ heartbeat_at: new Date(Date.now() - staleAfterMs - 1000) });
    // Never started beside an un-recovered one (its shadow or retired table may still be there)...
    await expect(startProjectionRebuild(deps(), scope, 'test', 'before recovery')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/awaits recovery/),
    });
    // ...which the reconciler (or the service, before a start) recovers: it never got to its shadow.
    expect((await recoverAbandonedRebuilds(deps())).map((x) => [x.id, x.status, x.errorCode])).toEqual([[live.id, 'FAILED', 'ABANDONED']]);
    const r = await (await startProjectionRebuild(deps(), scope, 'test', 'after the crash')).done;
    expect(r).toMatchObject({ status: 'VERIFIED', phase: 'DONE' });
    expect(await env.resources.pg('projection_rebuilds').where({ id: live.id }).first()).toMatchObject({
      status: 'FAILED',
      error_code: 'ABANDONED',
    });
  });
});
