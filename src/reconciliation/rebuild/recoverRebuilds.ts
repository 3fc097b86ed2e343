// Recovery of rebuilds whose process died (a crash, an OOM kill, a SIGKILL): a RUNNING rebuild whose
// heartbeat is older than REBUILD_STALE_AFTER_MS is claimed by one process (a conditional UPDATE, see
// ledger/sql/rebuildRows.ts) and finished there, so nothing stays half-swapped:
//   before the swap  readers never left the live table: the shadow is dropped and the rebuild FAILED
//                    with ABANDONED ("rolled back");
//   after the swap   readers are on the rebuilt table, which is kept: the rows that reached the old
//                    table since the rebuild started are copied over, the scope is verified as
//                    runRebuild does, and the rebuild ends VERIFIED (the old table dropped) or FAILED
//                    (the old table kept for a manual rollback), noting that it was resumed.
// Whether the swap happened is decided by swapState.ts from the phase and the tables ClickHouse has.
// A recovery that cannot reach a store leaves the rebuild RUNNING; its heartbeat goes stale again and
// the next recovery (the reconciler's next tick, or the next rebuild's start) tries again. Every step is
// idempotent (DROP IF EXISTS, copies that collapse in ReplacingMergeTree), so a recovery that dies
// itself is recovered in turn. The `finished` callback settles the rebuild's repairs as runRebuild does.
import { isConnectionError, TidemarkError } from '../../shared/errors';
import { summarizeError } from '../../shared/redact';
import type { RebuildRecord } from '../ledger/records';
import { claimStaleRebuild, staleRebuilds, updateRebuild } from '../ledger/sql/rebuildRows';
import { rebuildOf } from '../ledger/records';
import { scopeFromJson } from '../scope';
import { projectionMappingOf } from '../target/projectionMapping';
import { startRebuildHeartbeat } from './rebuildLiveness';
import { dropTable } from './sql/shadowTables';
import { storageTableFacts } from './sql/storageTables';
import { rollForward, type RecoveryDeps } from './resumeAfterSwap';
import { swapStateOf } from './swapState';

export type { RecoveryDeps };

/** Recovers every stale rebuild this process manages to claim; returns them as they ended. */
export async function recoverAbandonedRebuilds(d: RecoveryDeps): Promise<RebuildRecord[]> {
  const recovered: RebuildRecord[] = [];
  for (const stale of await staleRebuilds(d.ledger, d.clock.now(), d.staleAfterMs)) {
    if (d.signal?.aborted) break;
    // Another process claimed it first, or its own process came back to life: not ours.
    const claimed = await claimStaleRebuild(d.ledger, stale.id, d.clock.now(), d.staleAfterMs);
    if (claimed) recovered.push(await recoverOne(d, claimed));
  }
  return recovered;
}

async function reload(d: RecoveryDeps, id: number): Promise<RebuildRecord> {
  return rebuildOf((await d.ledger('projection_rebuilds').where({ id }).first()) as Record<string, unknown>);
}

async function recoverOne(d: RecoveryDeps, r: RebuildRecord): Promise<RebuildRecord> {
  const scope = scopeFromJson(r.scope);
  const live = projectionMappingOf(scope.domain).table;
  // Only ever a name runRebuild generated (`<table>__rebuild_<id>`, `<table>__pending`): never the live table.
  if (!r.shadowTable.startsWith(`${live}__`)) throw new TidemarkError('INTERNAL', `rebuild ${r.id} names no shadow of ${live}`);
  const names = { live, shadow: r.shadowTable, retired: `${live}__retired_${r.id}` };
  const log = { rebuildId: r.id, domain: r.domain, phase: r.phase };
  const heartbeat = startRebuildHeartbeat(d, r.id);
  let swapped = false;
  let retired: string | null = null;
  try {
    const facts = await storageTableFacts(d.ch, d.layout, d.database, Object.values(names));
    const state = swapStateOf({ phase: r.phase, shadowUuid: r.shadowUuid, retiredTable: r.retiredTable, names, facts });
    swapped = state.swapped;
    retired = state.swapped ? state.retired : null;
    d.logger.warn({ ...log, swapped }, 'recovering a projection rebuild whose process stopped');
    if (!state.swapped) {
      await dropTable(d.ch, d.layout, d.database, names.shadow);
      await updateRebuild(
        d.ledger,
        r.id,
        {
          status: 'FAILED',
          error_code: 'ABANDONED',
          error_summary: `rolled back: the rebuilding process stopped in ${r.phase}, before the swap; shadow dropped, readers never left the live table`,
          finished_at: d.clock.now(),
        },
        d.clock.now(),
      );
    } else await rollForward(d, r, scope, state.retired, state.why);
  } catch (err) {
    const safe = summarizeError(err);
    if (isConnectionError(err)) {
      // Left RUNNING (and soon stale again): the next recovery tries again once the store is back.
      d.logger.warn({ ...log, error: safe }, 'recovering a projection rebuild failed; it will be tried again');
      return reload(d, r.id);
    }
    d.logger.error({ ...log, error: safe }, 'recovering a projection rebuild failed');
    if (!swapped) await dropTable(d.ch, d.layout, d.database, names.shadow).catch(() => undefined);
    await updateRebuild(
      d.ledger,
      r.id,
      {
        status: 'FAILED',
        error_code: swapped ? safe.code : 'ABANDONED',
        error_summary: `recovery ${swapped ? 'after the swap (retired table kept)' : 'before the swap'}: ${safe.summary}`.slice(0, 255),
        finished_at: d.clock.now(),
        ...(retired ? { retired_table: retired } : {}),
      },
      d.clock.now(),
    ).catch(() => undefined);
  } finally {
    heartbeat.stop();
  }
  const final = await reload(d, r.id);
  d.logger.warn({ ...log, status: final.status, errorCode: final.errorCode }, 'projection rebuild recovered');
  await d.finished(final).catch((err) => d.logger.error({ err, rebuildId: r.id }, 'settling the repairs of a rebuild failed'));
  return final;
}
