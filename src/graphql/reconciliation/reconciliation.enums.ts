// The enums of the operator reconciliation surface (one registration each, shared by every type).
import { registerEnumType } from 'type-graphql';
import type { DiscrepancyKind, DiscrepancyStatus, ReconcileLevel, RunOutcome, RunTrigger } from '../../reconciliation/model';
import type { RebuildStatus, RepairAction, RepairOutcome, Verification } from '../../reconciliation/ledger/records';
import { enumOf } from '../shared/enums';

export const LevelEnum = enumOf<ReconcileLevel>(['COUNTS', 'IDS', 'CONTENT']);
registerEnumType(LevelEnum, {
  name: 'ReconciliationLevel',
  description:
    'COUNTS: latest non-deleted records per segment.\nIDS: ids, versions and deletion state.\n' +
    'CONTENT: canonical content digests (finds equal-version field errors).',
});
export const KindEnum = enumOf<DiscrepancyKind>(['MISSING', 'STALE_VERSION', 'CONTENT_MISMATCH', 'DELETION_NOT_APPLIED', 'UNEXPECTED_ROW']);
registerEnumType(KindEnum, { name: 'DiscrepancyKind' });
export const StatusEnum = enumOf<DiscrepancyStatus>(['OPEN', 'REPAIRING', 'RESOLVED']);
registerEnumType(StatusEnum, { name: 'DiscrepancyStatus' });
export const OutcomeEnum = enumOf<RunOutcome>(['CLEAN', 'DISCREPANCIES', 'CATCHING_UP', 'SCOPE_CHANGED', 'FAILED']);
registerEnumType(OutcomeEnum, {
  name: 'ReconciliationOutcome',
  description: 'CATCHING_UP and SCOPE_CHANGED are normal delay: nothing was recorded as a discrepancy; try again later.',
});
export const ActionEnum = enumOf<RepairAction>(['REPLAY', 'TOMBSTONE', 'REBUILD', 'INVESTIGATE', 'REMOVE_UNEXPECTED', 'QUARANTINE_SWEEP']);
registerEnumType(ActionEnum, { name: 'RepairAction' });
export const RepairOutcomeEnum = enumOf<RepairOutcome>(['SENT', 'COMPLETED', 'REFUSED', 'FAILED']);
registerEnumType(RepairOutcomeEnum, { name: 'RepairOutcome' });
export const VerificationEnum = enumOf<Verification>(['PENDING', 'PASSED', 'FAILED', 'NOT_APPLICABLE']);
registerEnumType(VerificationEnum, { name: 'RepairVerification' });
export const RebuildStatusEnum = enumOf<RebuildStatus>(['RUNNING', 'VERIFIED', 'FAILED']);
registerEnumType(RebuildStatusEnum, { name: 'ProjectionRebuildStatus' });
export const TriggerEnum = enumOf<RunTrigger>(['OPERATOR', 'SCHEDULE', 'ROTATION', 'EXPIRED_EVENTS', 'VERIFICATION', 'REBUILD_VALIDATION']);
registerEnumType(TriggerEnum, {
  name: 'ReconciliationTrigger',
  description:
    'Why a run happened: OPERATOR; SCHEDULE (a scope that changed and completed); ROTATION (the re-verification of an unchanged scope); ' +
    'EXPIRED_EVENTS (a scope whose events expired on Kafka before they were applied); VERIFICATION (of a rebuild).',
});
