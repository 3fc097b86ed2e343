// Operator GraphQL over kafka-first event_publications: `publications` (a paged view of one domain,
// optionally one status) and `replayDeadLetters`. Operator only. Only safe fields exist on the type:
// there is no field for the stored payload or headers, and error summaries are redacted.
import { Arg, Authorized, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { GatewayContext } from '../context';
import { DOMAIN_VALUES } from '../shared/enums';
import type { Domain } from '../../publication/event';
import type { KafkaFirstOperations, PublicationPage } from '../../publication/kafkaFirst/operations';
import { ConnectionOf, toConnection } from '../connection';
import type { PublicationStatus } from '../../publication/kafkaFirst/publicationRow';
import { requireService } from '../shared/services';

const STATUSES: Record<PublicationStatus, PublicationStatus> = {
  NOT_PUBLISHED: 'NOT_PUBLISHED',
  PUBLISHED: 'PUBLISHED',
  DEAD_LETTER: 'DEAD_LETTER',
};
registerEnumType(STATUSES, {
  name: 'EventPublicationStatus',
  description:
    'State of a kafka-first event_publications row: NOT_PUBLISHED (waiting for the relay), PUBLISHED (relayed), DEAD_LETTER (relay gave up; operator replay).',
});

@ObjectType({ description: 'A kafka-first publication row (fallback or reconciled). Never carries the event payload.' })
export class EventPublication {
  @Field(() => String) eventId!: string;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) aggregateId!: string;
  @Field(() => Int) version!: number;
  @Field(() => STATUSES) status!: PublicationStatus;
  @Field(() => String, { description: 'DIRECT_FALLBACK (direct attempts failed) or RECONCILER (rebuilt after the grace period).' })
  source!: string;
  @Field(() => Int, { description: 'Direct attempts made before the row was stored.' }) directAttempts!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'timeout (delivery unknown: the event may already be in Kafka), failure, or circuit_open (no attempt: Kafka was known to be down).',
  })
  directResult!: string | null;
  @Field(() => Int) relayAttempts!: number;
  @Field(() => Int, { description: 'Operator replays of this row.' }) replayCount!: number;
  @Field(() => GraphQLDateTimeISO) nextAttemptAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'When the current relay claim expires (null when unclaimed).' })
  claimExpiresAt!: Date | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) publishedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Error class or code of the last relay failure.' }) lastErrorCode!: string | null;
  @Field(() => String, { nullable: true, description: 'Redacted, truncated summary of the last relay failure.' }) lastErrorSummary!:
    string | null;
}

@ObjectType({ description: 'A page of publications, oldest first.' })
export class EventPublicationPage extends ConnectionOf(EventPublication, 'EventPublication') {
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page (the same as pageInfo.endCursor).' }) endCursor!:
    string | null;
  @Field(() => Boolean) hasNextPage!: boolean;
}

@InputType({ description: 'Which DEAD_LETTER rows to replay.' })
export class ReplayDeadLettersInput {
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => [String], { nullable: true, description: 'Only these events (all DEAD_LETTER rows of the domain when omitted).' })
  eventIds?: string[] | null;
  @Field(() => Int, { defaultValue: 100, description: 'At most this many rows (1-1000), oldest first.' }) limit!: number;
}

@ObjectType({ description: 'Rows moved from DEAD_LETTER back to NOT_PUBLISHED with a fresh attempt budget.' })
export class ReplayDeadLettersPayload {
  @Field(() => Int) replayedCount!: number;
  @Field(() => [String]) eventIds!: string[];
}

function ops(ctx: GatewayContext): KafkaFirstOperations {
  return requireService(ctx, 'kafkaFirstPublications');
}

const pageOf = (p: PublicationPage, after: string | null): EventPublicationPage =>
  Object.assign(
    toConnection(p.nodes, (_, i) => p.cursors[i]!, { hasNextPage: p.hasNextPage, after }),
    { endCursor: p.endCursor, hasNextPage: p.hasNextPage },
  );

@Resolver()
export class KafkaFirstPublicationsResolver {
  @Authorized('operate')
  @Query(() => EventPublicationPage, {
    description: 'Operator only. Kafka-first publication rows of one domain, oldest first, with attempt counts and a safe error summary.',
  })
  async publications(
    @Arg('domain', () => DOMAIN_VALUES) domain: Domain,
    @Arg('status', () => STATUSES, { nullable: true }) status: PublicationStatus | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<EventPublicationPage> {
    return pageOf(await ops(ctx).list({ domain, status: status ?? undefined, first, after }), after);
  }

  @Authorized('operate')
  @Query(() => EventPublicationPage, {
    description: 'Operator only. DEAD_LETTER rows of one domain (publications with status DEAD_LETTER), with safe error summaries.',
  })
  async deadLetters(
    @Arg('domain', () => DOMAIN_VALUES) domain: Domain,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<EventPublicationPage> {
    return pageOf(await ops(ctx).list({ domain, status: 'DEAD_LETTER', first, after }), after);
  }

  @Authorized('operate')
  @Mutation(() => ReplayDeadLettersPayload, {
    description: 'Operator only. Moves DEAD_LETTER rows back to NOT_PUBLISHED so the relay tries again (3 more attempts).',
  })
  async replayDeadLetters(
    @Arg('filter', () => ReplayDeadLettersInput) filter: ReplayDeadLettersInput,
    @Ctx() ctx: GatewayContext,
  ): Promise<ReplayDeadLettersPayload> {
    const eventIds = await ops(ctx).replayDeadLetters({ domain: filter.domain, eventIds: filter.eventIds, limit: filter.limit });
    return { replayedCount: eventIds.length, eventIds };
  }
}
