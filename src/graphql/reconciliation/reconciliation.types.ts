// GraphQL types of the operator reconciliation surface. Digests are shown (they identify content
// without revealing it); canonical lines and values never are: a content mismatch names the fields
// that differ, not their values.
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { Domain } from '../../publication/event';
import type { DiscrepancyKind, DiscrepancyStatus, ReconcileLevel, RunOutcome, RunTrigger } from '../../reconciliation/model';
import type { RebuildStatus, RepairAction, RepairOutcome, Verification } from '../../reconciliation/ledger/records';
import { CURSOR } from '../connection';
import { DOMAIN_VALUES } from '../shared/enums';
import {
  ActionEnum,
  KindEnum,
  LevelEnum,
  OutcomeEnum,
  RebuildStatusEnum,
  RepairOutcomeEnum,
  StatusEnum,
  TriggerEnum,
  VerificationEnum,
} from './reconciliation.enums';

@ObjectType({ description: 'A scope revision: every commit in scope raises versionSum.' })
export class SourceRevisionView {
  @Field(() => Int) aggregates!: number;
  @Field(() => Int) live!: number;
  @Field(() => Number, { description: 'Sum of the versions of every record in scope (exact below 2^53).' }) versionSum!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) maxCommitAt!: Date | null;
}

@ObjectType({ description: 'Logical counts (latest non-deleted) of one segment: a project, or a UTC day of orders.' })
export class SegmentCountView {
  @Field(() => String) segment!: string;
  @Field(() => Int) source!: number;
  @Field(() => Int) target!: number;
}

@ObjectType({ description: 'One reconciliation run of one scope.' })
export class ReconciliationRunView {
  @Field(() => ID) id!: string;
  @Field(() => String, CURSOR) cursor!: string;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) scopeKey!: string;
  @Field(() => LevelEnum) levelRequested!: ReconcileLevel;
  @Field(() => LevelEnum, { nullable: true }) levelReached!: ReconcileLevel | null;
  @Field(() => String, {
    description:
      'OPERATOR | SCHEDULE (a scope that changed) | ROTATION (re-verification of an unchanged scope) | ' +
      'EXPIRED_EVENTS (events expired on Kafka) | VERIFICATION',
  })
  trigger!: string;
  @Field(() => OutcomeEnum, { nullable: true, description: 'Null while running.' }) outcome!: RunOutcome | null;
  @Field(() => Int) attempts!: number;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => SourceRevisionView, { nullable: true }) revisionBefore!: SourceRevisionView | null;
  @Field(() => SourceRevisionView, { nullable: true }) revisionAfter!: SourceRevisionView | null;
  @Field(() => [SegmentCountView]) counts!: SegmentCountView[];
  @Field(() => Int) bucketsCompared!: number;
  @Field(() => Int) bucketsMismatched!: number;
  @Field(() => Int) discrepanciesFound!: number;
  @Field(() => Int, {
    description:
      'Aggregates this run left out because they changed after its source snapshot (the projection already ' +
      'holds a newer version the source confirms); the next run of the scope judges them. 0 for COUNTS.',
  })
  excludedChangedAfterSnapshot!: number;
  @Field(() => Int, {
    description:
      'Aggregates this run left out as in flight: the projection is behind the snapshot and the newer version ' +
      'is still being published or younger than the grace period; the next run of the scope judges them.',
  })
  excludedInFlight!: number;
  @Field(() => String) requestedBy!: string;
  @Field(() => GraphQLDateTimeISO) startedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) finishedAt!: Date | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
  @Field(() => String, { nullable: true }) errorCode!: string | null;
  @Field(() => String, { nullable: true, description: 'A redacted summary.' }) errorSummary!: string | null;
}

@ObjectType({ description: 'A stored discrepancy between the authoritative store and the projection.' })
export class DiscrepancyView {
  @Field(() => ID) id!: string;
  @Field(() => String, CURSOR) cursor!: string;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) scopeKey!: string;
  @Field(() => String) aggregateId!: string;
  @Field(() => KindEnum) kind!: DiscrepancyKind;
  @Field(() => StatusEnum) status!: DiscrepancyStatus;
  @Field(() => Int, { nullable: true }) sourceVersion!: number | null;
  @Field(() => Int, { nullable: true }) targetVersion!: number | null;
  @Field(() => String, { nullable: true }) sourceDigest!: string | null;
  @Field(() => String, { nullable: true }) targetDigest!: string | null;
  @Field(() => [String], { description: 'Fields whose canonical values differ (CONTENT_MISMATCH); never the values.' })
  differingFields!: string[];
  @Field(() => GraphQLDateTimeISO) firstSeenAt!: Date;
  @Field(() => GraphQLDateTimeISO) lastSeenAt!: Date;
  @Field(() => Int) seenCount!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) resolvedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'REPAIRED | REBUILT | REMOVED_BY_OPERATOR | NOT_FOUND_AGAIN | ERASED' }) resolution!:
    string | null;
}

@ObjectType()
export class ReconcilePayload {
  @Field(() => ReconciliationRunView) run!: ReconciliationRunView;
  @Field(() => [DiscrepancyView], { description: 'The discrepancies this run found (stored; see discrepancies for all).' })
  discrepancies!: DiscrepancyView[];
}

@InputType()
export class DiscrepancyFilterInput {
  @Field(() => DOMAIN_VALUES, { nullable: true }) domain?: Domain | null;
  @Field(() => [KindEnum], { nullable: true }) kinds?: DiscrepancyKind[] | null;
  @Field(() => [StatusEnum], { nullable: true }) statuses?: DiscrepancyStatus[] | null;
  @Field(() => String, { nullable: true }) scopeKey?: string | null;
  @Field(() => String, { nullable: true }) aggregateId?: string | null;
}

@ObjectType({ description: 'One audited repair: what was done, why, from which source version, and whether re-comparison verified it.' })
export class RepairView {
  @Field(() => ID) id!: string;
  @Field(() => String, CURSOR) cursor!: string;
  @Field(() => ID, { nullable: true }) discrepancyId!: string | null;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) scopeKey!: string;
  @Field(() => ActionEnum) action!: RepairAction;
  @Field(() => String) reason!: string;
  @Field(() => String, { nullable: true }) aggregateId!: string | null;
  @Field(() => Int, { nullable: true }) sourceVersion!: number | null;
  @Field(() => Int, { nullable: true }) targetVersion!: number | null;
  @Field(() => String, { nullable: true, description: 'The event re-sent: its existing eventId (never a new version).' }) eventId!:
    string | null;
  @Field(() => ID, { nullable: true }) rebuildId!: string | null;
  @Field(() => String) requestedBy!: string;
  @Field(() => RepairOutcomeEnum) outcome!: RepairOutcome;
  @Field(() => String, { nullable: true }) outcomeNote!: string | null;
  @Field(() => VerificationEnum) verification!: Verification;
  @Field(() => Int) verificationAttempts!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) verifiedAt!: Date | null;
  @Field(() => String, { nullable: true }) errorCode!: string | null;
  @Field(() => String, { nullable: true, description: 'A redacted summary.' }) errorSummary!: string | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@InputType()
export class RepairFilterInput {
  @Field(() => DOMAIN_VALUES, { nullable: true }) domain?: Domain | null;
  @Field(() => [ActionEnum], { nullable: true }) actions?: RepairAction[] | null;
  @Field(() => [VerificationEnum], { nullable: true }) verifications?: Verification[] | null;
  @Field(() => ID, { nullable: true }) discrepancyId?: string | null;
  @Field(() => ID, { nullable: true }) rebuildId?: string | null;
}

@ObjectType({ description: 'A controlled rebuild of one scope of a projection into a shadow table.' })
export class ProjectionRebuildView {
  @Field(() => ID) id!: string;
  @Field(() => String, CURSOR) cursor!: string;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) scopeKey!: string;
  @Field(() => RebuildStatusEnum) status!: RebuildStatus;
  @Field(() => String, { description: 'SHADOW, COPY, LOAD, VALIDATE, SWAP, CATCH_UP, VERIFY, DONE' }) phase!: string;
  @Field(() => String) shadowTable!: string;
  @Field(() => String, { nullable: true, description: 'Kept after a failure following the swap (manual rollback).' }) retiredTable!:
    string | null;
  @Field(() => Int) sourceRows!: number;
  @Field(() => Int, { description: 'Physical rows whose content was quarantined.' }) quarantined!: number;
  @Field(() => String) requestedBy!: string;
  @Field(() => String) reason!: string;
  @Field(() => String, { nullable: true, description: 'Validation and verification results (JSON).' }) validation!: string | null;
  @Field(() => GraphQLDateTimeISO) startedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) swappedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) finishedAt!: Date | null;
  @Field(() => String, { nullable: true }) errorCode!: string | null;
  @Field(() => String, { nullable: true }) errorSummary!: string | null;
}

@InputType({ description: 'Which reconciliation runs to list; every field narrows the selection.' })
export class ReconciliationRunFilterInput {
  @Field(() => DOMAIN_VALUES, { nullable: true }) domain?: Domain | null;
  @Field(() => String, { nullable: true }) scopeKey?: string | null;
  @Field(() => [TriggerEnum], { nullable: true }) triggers?: RunTrigger[] | null;
  @Field(() => [OutcomeEnum], { nullable: true }) outcomes?: RunOutcome[] | null;
}
