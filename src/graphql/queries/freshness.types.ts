// The freshness marker every read carries. The rule behind `status` and `reason` is documented in
// src/projections/freshness/decideFreshness.ts and docs/queries.md.
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import type {
  Freshness as FreshnessValue,
  FreshnessReason as Reason,
  FreshnessStatus as Status,
} from '../../projections/freshness/decideFreshness';

export const FreshnessStatus: Record<Status, Status> = { FRESH: 'FRESH', CATCHING_UP: 'CATCHING_UP', STALE: 'STALE' };
registerEnumType(FreshnessStatus, {
  name: 'FreshnessStatus',
  description: 'How far a read can be trusted to include every committed change in its scope.',
  valuesConfig: {
    FRESH: { description: 'Nothing in scope is pending and the projector has applied every published event.' },
    CATCHING_UP: { description: 'Publications in scope are pending, or the projector is behind; normal delay.' },
    STALE: {
      description:
        'Something needs attention: parked/dead-lettered events in scope, a pending event older than the threshold,\n' +
        'a stalled projector, events that expired unapplied, or state that cannot be read.',
    },
  },
});

export const FreshnessReason: Record<Reason, Reason> = {
  UP_TO_DATE: 'UP_TO_DATE',
  PENDING_PUBLICATIONS: 'PENDING_PUBLICATIONS',
  CONSUMER_LAG: 'CONSUMER_LAG',
  PARKED_OR_DEAD_LETTERED: 'PARKED_OR_DEAD_LETTERED',
  PENDING_TOO_OLD: 'PENDING_TOO_OLD',
  PROJECTOR_STALLED: 'PROJECTOR_STALLED',
  STATE_UNKNOWN: 'STATE_UNKNOWN',
  EVENTS_EXPIRED: 'EVENTS_EXPIRED',
  PROJECTOR_DEAD_LETTERED: 'PROJECTOR_DEAD_LETTERED',
};
registerEnumType(FreshnessReason, {
  name: 'FreshnessReason',
  description: 'The rule that produced the freshness status (first matching, in STALE, CATCHING_UP, FRESH order).',
  valuesConfig: {
    UP_TO_DATE: { description: 'FRESH: no pending publication in scope, no consumer lag.' },
    PENDING_PUBLICATIONS: { description: 'CATCHING_UP: publications in scope are NEW, PROCESSING, FAILED or NOT_PUBLISHED.' },
    CONSUMER_LAG: { description: 'CATCHING_UP: the projector has not applied every message on the domain topic yet.' },
    PARKED_OR_DEAD_LETTERED: { description: 'STALE: a publication in scope is PARKED or DEAD_LETTER and needs an operator.' },
    PENDING_TOO_OLD: { description: 'STALE: the oldest pending publication in scope is older than FRESHNESS_STALE_AFTER_MS.' },
    PROJECTOR_STALLED: { description: 'STALE: a message published more than FRESHNESS_STALE_AFTER_MS ago is still unapplied.' },
    STATE_UNKNOWN: { description: 'STALE: a store holding freshness inputs could not be read.' },
    EVENTS_EXPIRED: {
      description:
        'STALE: events of the domain expired on Kafka (retention) before the projector applied them;\n' +
        'stays until a reconciliation covering their time window is CLEAN.',
    },
    PROJECTOR_DEAD_LETTERED: {
      description: 'STALE: the projector dead-lettered an event in scope (for a consistent read: a write its token names).',
    },
  },
});

@ObjectType({
  description: 'How fresh a read is: computed from state persisted by the stores and the projector, before the data was read.',
})
export class Freshness {
  @Field(() => FreshnessStatus) status!: Status;
  @Field(() => FreshnessReason) reason!: Reason;
  @Field(() => String, { description: 'The facts behind the verdict in one sentence (counts, ages, store names).' }) detail!: string;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description: 'Every change committed before this time is in the read model (null: unknown).',
  })
  watermark!: Date | null;
  @Field(() => Float, { nullable: true, description: 'asOf minus watermark, in milliseconds (null: unknown).' }) lagMs!: number | null;
  @Field(() => Int, { description: 'Publications in scope not on Kafka yet (pending, parked or dead-lettered).' })
  pendingPublications!: number;
  @Field(() => Int, { description: 'Messages the projector has not applied yet on the domain topic.' }) lagMessages!: number;
  @Field(() => GraphQLDateTimeISO, { description: 'When the inputs of this marker were read (markers are cached briefly).' }) asOf!: Date;
}

export const toFreshness = (f: FreshnessValue): Freshness => f;
