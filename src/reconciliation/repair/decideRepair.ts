// Pure: which repair a discrepancy gets, from its kind and the authoritative state found now.
//   MISSING, STALE_VERSION   replay the current authoritative state with its existing version and
//                            eventId (if the source was deleted since, that is its tombstone)
//   DELETION_NOT_APPLIED     deliver the versioned tombstone from the deletion log
//   CONTENT_MISMATCH         controlled rebuild of the scope (re-sending the same version would not
//                            order the good content after the bad one)
//   UNEXPECTED_ROW           investigate; removal only by an explicit, audited operator action
// A replay never invents a version: the event is the authoritative state's own.
import type { DomainEvent } from '../../publication/event';
import type { DiscrepancyKind } from '../model';
import type { RepairAction } from '../ledger/records';

export type RepairDecision =
  | { action: 'REPLAY' | 'TOMBSTONE'; event: DomainEvent }
  | { action: 'REBUILD' }
  | { action: 'INVESTIGATE'; note: string }
  | { refuse: string; action: RepairAction };

export function decideRepair(kind: DiscrepancyKind, current: DomainEvent | undefined): RepairDecision {
  switch (kind) {
    case 'MISSING':
    case 'STALE_VERSION':
    case 'DELETION_NOT_APPLIED':
      if (!current) return { action: 'REPLAY', refuse: 'the source no longer holds this aggregate; reconcile again to classify it' };
      if (kind === 'DELETION_NOT_APPLIED' && !current.isDeleted) return { action: 'REPLAY', event: current };
      return { action: current.isDeleted ? 'TOMBSTONE' : 'REPLAY', event: current };
    case 'CONTENT_MISMATCH':
      return { action: 'REBUILD' };
    case 'UNEXPECTED_ROW':
      return {
        action: 'INVESTIGATE',
        note: 'a projection row with no source is not changed automatically; investigate, then use removeUnexpectedRows',
      };
  }
}
