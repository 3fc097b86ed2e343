// `publicationHealth`: operator-only view of every domain's publication backlog per store, with the
// projection lag and reconciliation state, computed from persisted state (any instance answers alike).
import { Arg, Authorized, Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Domain } from '../../publication/event';
import {
  readPublicationHealth,
  type DomainPublicationHealth,
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
