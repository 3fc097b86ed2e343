// `publicationHealth`: operator-only view of every domain's publication backlog per store, with the
// projection lag and reconciliation state, computed from persisted state (any instance answers alike).
import { Arg, Authorized, Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Domain } from '../../publication/event';
import {
  readPublicationHealth,
  type DomainPublicationHealth,
  type EventSchemaHealth,
  type StorePublicationHealth,
} from '../../publication/health/publicationHealth';
import { toTidemarkError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { DOMAIN_VALUES } from '../shared/enums';
import { requireService } from '../shared/services';

@ObjectType({ description: 'Publication backlog of one store (a fitness shard or the orders database).' })
export class StorePublicationHealthView implements StorePublicationHealth {
  @Field(() => String, { description: 'postgres | mysql-shard-<n>' }) store!: string;
  @Field(() => Int, { description: 'Waiting to be published (outbox NEW + PROCESSING, kafka-first NOT_PUBLISHED).' }) pending!: number;
  @Field(() => Int, { description: 'Outbox rows waiting for a retry after a failed attempt.' }) failed!: number;
  @Field(() => Int, { description: 'Outbox rows PARKED after the attempt limit (replayParkedEvents).' }) parked!: number;
  @Field(() => Int, { description: 'Kafka-first rows in DEAD_LETTER (replayDeadLetters).' }) deadLettered!: number;
  @Field(() => Int, { description: 'Claims whose lease expired: a relay died or stalled.' }) expiredClaims!: number;
  @Field(() => Float, { description: 'Age of the oldest unsent row, seconds (0 when nothing waits).' }) oldestUnsentAgeSeconds!: number;
}

@ObjectType({ description: "Which event schema version this gateway writes a domain's events in, and why (docs/upgrades.md)." })
export class EventSchemaHealthView implements EventSchemaHealth {
  @Field(() => Int, { description: 'The version written now: the newest known, never beyond what every live reader reads.' })
  writing!: number;
  @Field(() => Int, { description: "The newest version this process knows (its code's, or EVENT_SCHEMA_VERSION_CAP)." })
  newestKnown!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'The newest version every live projector member announced it reads; null until the group was seen Stable.',
  })
  readersAgree!: number | null;
}

@ObjectType({ description: 'Publication health of one domain.' })
export class DomainPublicationHealthView implements DomainPublicationHealth {
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => [StorePublicationHealthView]) stores!: StorePublicationHealthView[];
  @Field(() => Float, { nullable: true, description: 'How far the ClickHouse projection is behind the source (ms); null when unknown.' })
  projectionLagMs!: number | null;
  @Field(() => Int, { nullable: true, description: 'Discrepancies found by reconciliation and not yet resolved.' })
  unresolvedDiscrepancies!: number | null;
  @Field(() => Int, { nullable: true, description: 'Repairs carried out whose verification has not concluded.' })
  repairsAwaitingVerification!: number | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'Age of the oldest CLEAN CONTENT verification among the registered scopes (campaigns, order hours), seconds; ' +
      'a never verified scope counts from its registration. Null when no scope is registered yet.',
  })
  oldestVerificationAgeSeconds!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Registered scopes never verified CLEAN at CONTENT level (the rotation verifies them first).',
  })
  scopesNeverVerified!: number | null;
  @Field(() => EventSchemaHealthView, { nullable: true, description: 'The schema version gate of this gateway; null when it has none.' })
  eventSchema!: EventSchemaHealthView | null;
}

@Resolver()
export class PublicationHealthResolver {
  @Authorized('operate')
  @Query(() => [DomainPublicationHealthView], {
    description:
      'Operator only. Backlog, stuck and parked publications per domain and store, projection lag, discrepancies and repairs awaiting verification.',
  })
  async publicationHealth(
    @Ctx() ctx: GatewayContext,
    @Arg('domain', () => DOMAIN_VALUES, { nullable: true }) domain?: Domain,
  ): Promise<DomainPublicationHealthView[]> {
    const deps = requireService(ctx, 'publicationHealth');
    try {
      return await readPublicationHealth(deps, domain ?? undefined);
    } catch (err) {
      throw toTidemarkError(err, 'publication-stores');
    }
  }
}
