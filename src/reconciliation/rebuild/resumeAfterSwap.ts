// What follows a rebuild's swap, for the rebuild itself (rebuildProjection.ts) and for the recovery of one
// whose process died after its swap (recoverRebuilds.ts): readers are on the rebuilt table, which is
// kept. CATCH_UP copies the rows that reached the old table since `sinceMs` (copies collapse in the
// ReplacingMergeTree); VERIFY reconciles the scope with the service's rule (snapshot: a scope still being
// edited verifies) and settles the rest against the old table (an insert in flight into it at the swap
// commits after the copy read it: copy again while it holds anything newer; it gets no new writers).
// Then the old table is dropped (VERIFIED) or kept for a manual rollback (FAILED). Re-runnable by a
// recovery: an old table already dropped by an earlier recovery leaves only the verification.
import type { RebuildRecord } from '../ledger/records';
import { updateRebuild } from '../ledger/sql/rebuildRows';
import type { Scope } from '../scope';
import { projectionMappingOf } from '../target/projectionMapping';
import type { RebuildDeps } from './rebuildDeps';
import { aggregatesBehind } from './sql/aggregatesBehind';
import { copyLateRows } from './sql/copyRows';
import { distributeRetired, dropTable } from './sql/shadowTables';
import { storageTableFacts } from './sql/storageTables';
import { SETTLE_PAUSE_MS, settled } from './validateShadow';

const TRANSIENT = new Set<string>(['CATCHING_UP', 'SCOPE_CHANGED']);

/** What finishing (or recovering) a rebuild needs of a rebuild's dependencies. */
export type RecoveryDeps = Pick<
  RebuildDeps,
  'ledger' | 'ch' | 'database' | 'layout' | 'clock' | 'logger' | 'catchUpMarginMs' | 'staleAfterMs' | 'verify' | 'finished'
> & { signal?: AbortSignal };

export async function finishAfterSwap(
  d: RecoveryDeps,
  r: RebuildRecord,
  scope: Scope,
  retired: string,
  o: {
    swappedAt: Date;
    /** Rows of the old table ingested from then on are copied (the last catch-up round minus the margin). */
    sinceMs: number;
    validation: Record<string, unknown>;
    /** Set when a recovery resumes the rebuild: why, for the record and the summary. */
    resumed?: string;
    /** False when an earlier recovery already dropped the old table. */
    oldData?: boolean;
  },
): Promise<void> {
  const m = projectionMappingOf(scope.domain);
  const live = m.table;
  const oldData = o.oldData ?? true;
  await updateRebuild(d.ledger, r.id, { phase: 'CATCH_UP', retired_table: retired, swapped_at: o.swappedAt }, d.clock.now());
  if (oldData) await copyLateRows(d.ch, d.database, retired, live, m, scope, o.sinceMs);

  await updateRebuild(d.ledger, r.id, { phase: 'VERIFY' }, d.clock.now());
  const verified = await settled(
    () => d.verify(scope),
    (v) => TRANSIENT.has(v.outcome),
    d.signal,
  );
  const behind = () =>
    oldData ? aggregatesBehind(d.ch, d.database, retired, live, m, scope, Number.MAX_SAFE_INTEGER) : Promise.resolve(0);
  let restBehind = await behind();
  if (restBehind > 0)
    restBehind = await settled(
      async () => {
        await copyLateRows(d.ch, d.database, retired, live, m, scope, o.sinceMs);
        return behind();
      },
      (n) => n > 0,
      d.signal,
      SETTLE_PAUSE_MS,
    );
  const ok = verified.outcome === 'CLEAN' && restBehind === 0;
  const validation = {
    ...o.validation,
    verification: { outcome: verified.outcome, note: verified.note, outsideScopeBehind: restBehind },
    ...(o.resumed ? { recovery: { resumed: true, why: o.resumed } } : {}),
  };
  if (ok) await dropTable(d.ch, d.layout, d.database, retired);
  else d.logger.error({ rebuildId: r.id, verification: validation.verification }, 'projection rebuild failed its verification');
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
          error_summary: `${o.resumed ? 'resumed after its process stopped; ' : ''}after the swap: ${verified.outcome}; retired table kept for rollback`,
          finished_at: d.clock.now(),
        },
    d.clock.now(),
  );
}

/** A recovery's roll forward: runRebuild's rest after its swap, from what the crash left behind. */
export async function rollForward(d: RecoveryDeps, r: RebuildRecord, scope: Scope, retired: string, why: string): Promise<void> {
  const live = projectionMappingOf(scope.domain).table;
  // Gone when an earlier recovery dropped it after a CLEAN verification: only the verification is left.
  const oldData = (await storageTableFacts(d.ch, d.layout, d.database, [retired])).get(retired)!.exists;
  // RENAME path on a cluster: the swap's Distributed tables may not have been made before the crash.
  if (oldData && retired !== r.shadowTable) await distributeRetired(d.ch, d.layout, d.database, live, r.shadowTable, retired);
  await finishAfterSwap(d, r, scope, retired, {
    swappedAt: r.swappedAt ?? d.clock.now(),
    // The last copy's time died with the process: copy everything since the rebuild began.
    sinceMs: r.startedAt.getTime() - d.catchUpMarginMs,
    validation: r.validation ?? {},
    resumed: why,
    oldData,
  });
}
