// The second half of recovering a rebuild whose process died after its swap (recoverRebuilds.ts):
// what runRebuild would have done after the swap. Readers are on the rebuilt table, which is kept. Rows
// that reached the old table since the rebuild started (the time of its last copy died with the
// process; copies collapse in ReplacingMergeTree) are copied over, the scope is verified with the same
// callback and settle rounds, and the old table is dropped (VERIFIED) or kept for a manual rollback
// (FAILED). Re-runnable: an old table already dropped by an earlier recovery leaves only the verification.
import type { RebuildRecord } from '../ledger/records';
import { updateRebuild } from '../ledger/sql/rebuildRows';
import { sleep } from '../../shared/lifecycle';
import type { Scope } from '../scope';
import { PROJECTIONS } from '../target/projectionMapping';
import type { RebuildDeps } from './rebuildProjection';
import { aggregatesBehind } from './sql/aggregatesBehind';
import { copyLateRows } from './sql/copyRows';
import { distributeRetired, dropTable } from './sql/shadowTables';
import { storageTableFacts } from './sql/storageTables';

/** As in runRebuild: a verification answered "busy" is asked again, a bounded number of times. */
const SETTLE_ROUNDS = 3;
const SETTLE_PAUSE_MS = 500;
const TRANSIENT = new Set<string>(['CATCHING_UP', 'SCOPE_CHANGED']);

/** What recovering a rebuild needs of a rebuild's dependencies (recoverRebuilds.ts uses the same). */
export type RecoveryDeps = Pick<
  RebuildDeps,
  'ledger' | 'ch' | 'database' | 'layout' | 'clock' | 'logger' | 'catchUpMarginMs' | 'staleAfterMs' | 'verify' | 'finished'
> & { signal?: AbortSignal };

/** The rest of runRebuild after its swap: catch up from the old table, verify, then drop it or keep it. */
export async function rollForward(d: RecoveryDeps, r: RebuildRecord, scope: Scope, retired: string, why: string): Promise<void> {
  const m = PROJECTIONS[scope.domain];
  const live = m.table;
  await updateRebuild(
    d.ledger,
    r.id,
    { phase: 'CATCH_UP', retired_table: retired, swapped_at: r.swappedAt ?? d.clock.now() },
    d.clock.now(),
  );
  // Gone when an earlier recovery dropped it after a CLEAN verification: only the verification is left.
  const oldData = (await storageTableFacts(d.ch, d.layout, d.database, [retired])).get(retired)!.exists;
  // RENAME path on a cluster: the swap's Distributed tables may not have been made before the crash.
  if (oldData && retired !== r.shadowTable) await distributeRetired(d.ch, d.layout, d.database, live, r.shadowTable, retired);
  // The last copy's time died with the process: copy everything since the rebuild began (copies collapse).
  const sinceMs = r.startedAt.getTime() - d.catchUpMarginMs;
  if (oldData) await copyLateRows(d.ch, d.database, retired, live, m, scope, sinceMs);

  await updateRebuild(d.ledger, r.id, { phase: 'VERIFY' }, d.clock.now());
  let verified = await d.verify(scope);
  for (let round = 1; round < SETTLE_ROUNDS && TRANSIENT.has(verified.outcome) && !d.signal?.aborted; round++)
    verified = await d.verify(scope);
  const behind = () =>
    oldData ? aggregatesBehind(d.ch, d.database, retired, live, m, scope, Number.MAX_SAFE_INTEGER) : Promise.resolve(0);
  let restBehind = await behind();
  for (let round = 1; round < SETTLE_ROUNDS && restBehind > 0; round++) {
    await sleep(SETTLE_PAUSE_MS, d.signal);
    await copyLateRows(d.ch, d.database, retired, live, m, scope, sinceMs);
    restBehind = await behind();
  }
  const ok = verified.outcome === 'CLEAN' && restBehind === 0;
  const validation = {
    ...(r.validation ?? {}),
    verification: { outcome: verified.outcome, note: verified.note, outsideScopeBehind: restBehind },
    recovery: { resumed: true, why },
  };
  if (ok) await dropTable(d.ch, d.layout, d.database, retired);
  await updateRebuild(
    d.ledger,
    r.id,
    ok
      ? { status: 'VERIFIED', phase: 'DONE', retired_table: null, validation: JSON.stringify(validation), finished_at: d.clock.now() }
      : {
          status: 'FAILED',
          phase: 'VERIFY',
          validation: JSON.stringify(validation),
          error_code: 'VERIFICATION_FAILED',
          error_summary: `resumed after its process stopped; after the swap: ${verified.outcome}; retired table kept for rollback`,
          finished_at: d.clock.now(),
        },
    d.clock.now(),
  );
}
