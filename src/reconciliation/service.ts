// The reconciliation service: what operators (GraphQL) and the scheduled reconciler call. It wires
// the engine (snapshot/compareSnapshot), the ledger, repairs and rebuilds together; every long-running piece it
// starts (a rebuild in the background) is tracked and drained by stop(). The steps live in service/:
// a run (reconcileRun.ts), the runtime's state and waits (runtime.ts), a rebuild's audit row.
import type { Domain } from '../publication/event';
import { TidemarkError } from '../shared/errors';
import { listDiscrepancies, listRebuilds, listRepairs, listRuns } from './ledger/sql/ledgerQueries';
import type { DiscrepancyFilter, RepairFilter, RunFilter } from './ledger/sql/ledgerQueries';
import type { DiscrepancyRecord, RebuildRecord, RepairRecord, RunRecord } from './ledger/records';
import type { ReconcileLevel, RunTrigger } from './model';
import { removeUnexpectedRows } from './repair/removeUnexpectedRows';
import { repairDiscrepancies } from './repair/repairDiscrepancies';
import { verifyRepairs } from './repair/verifyRepairs';
import type { Scope } from './scope';
import type { ProjectorDeadLetters } from '../projections/deadLetterOperator';
import type { ReconciliationDeps } from './service/deps';
import { ReconciliationRuntime } from './service/runtime';

export type { ReconciliationDeps, ReconciliationSettings } from './service/deps';

export interface ReconcileOutcome {
  run: RunRecord;
  discrepancies: DiscrepancyRecord[];
}

export interface ReconciliationService {
  reconcile(
    scope: Scope,
    level: ReconcileLevel,
    o: { escalate?: boolean; trigger?: RunTrigger; requestedBy: string },
  ): Promise<ReconcileOutcome>;
  discrepancies(filter: DiscrepancyFilter): Promise<DiscrepancyRecord[]>;
  repair(discrepancyIds: number[], requestedBy: string): Promise<RepairRecord[]>;
  removeUnexpectedRows(discrepancyIds: number[], reason: string, requestedBy: string): Promise<RepairRecord[]>;
  rebuild(scope: Scope, requestedBy: string, reason: string): Promise<RebuildRecord>;
  /** Finishes rebuilds whose process stopped heart-beating: rolled back before the swap, resumed after it. */
  recoverAbandonedRebuilds(): Promise<RebuildRecord[]>;
  repairs(filter: RepairFilter): Promise<RepairRecord[]>;
  rebuilds(filter: { domain?: Domain; ids?: number[]; first: number; beforeId?: number }): Promise<RebuildRecord[]>;
  runs(filter: RunFilter): Promise<RunRecord[]>;
  /** Verifies pending repairs; returns how many are still pending. */
  verifyPending(repairIds?: number[]): Promise<number>;
  refreshGauges(): Promise<void>;
  /** The projector's dead letters: listed for operators and replayed through the current mapping. */
  readonly projectorDeadLetters: ProjectorDeadLetters;
  stop(): Promise<void>;
}

export function createReconciliationService(d: ReconciliationDeps): ReconciliationService {
  const rt = new ReconciliationRuntime(d);
  return {
    reconcile: (scope, level, o) => rt.track(rt.reconcile(scope, level, o)),
    discrepancies: (f) => listDiscrepancies(d.ledger, f),
    async repair(ids, requestedBy) {
      if (ids.length === 0) return [];
      return rt.settled(await rt.track(repairDiscrepancies(rt.repairDeps(), ids, requestedBy)));
    },
    async removeUnexpectedRows(ids, reason, requestedBy) {
      if (!reason.trim()) throw new TidemarkError('VALIDATION_FAILED', 'a reason is required', { details: { field: 'reason' } });
      return rt.settled(await rt.track(removeUnexpectedRows(rt.repairDeps(), ids, reason, requestedBy)));
    },
    rebuild: (scope, requestedBy, reason) => rt.rebuild(scope, requestedBy, reason),
    recoverAbandonedRebuilds: rt.recoverAbandoned,
    repairs: (f) => listRepairs(d.ledger, f),
    rebuilds: (f) => listRebuilds(d.ledger, f),
    runs: (f) => listRuns(d.ledger, f),
    verifyPending: (ids) => rt.track(verifyRepairs(rt.repairDeps(), ids)),
    refreshGauges: rt.refreshGauges,
    projectorDeadLetters: d.projectorDeadLetters,
    stop: () => rt.stop(),
  };
}
