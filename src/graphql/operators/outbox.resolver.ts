// Operator-only outbox views and actions: list PARKED events (keyset-paginated over every store) and
// replay them. A replay returns events to NEW with their original eventId and version; the relays
// deliver them again.
import { Arg, Authorized, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { MAX_OPERATOR_BATCH, type StoreFilter } from '../../publication/outbox/operator';
import { hasControlCharacters } from '../../shared/controlCharacters';
import { decodeCursor, encodeCursor } from '../../shared/cursor';
import { ValidationError } from '../../shared/errors';
import { domainModules, isDomain } from '../../domains/registry';
import type { GatewayContext } from '../context';
import { text } from '../shared/arguments';
import { requireService } from '../shared/services';

@InputType({ description: 'Which PARKED outbox events to act on; every field narrows the selection.' })
export class ParkedEventFilter {
  @Field(() => String, { nullable: true, description: 'fitness | orders' }) domain?: string | null;
  @Field(() => String, { nullable: true, description: 'mysql (fitness shards) | postgres (orders store)' }) store?: string | null;
  @Field(() => Int, { nullable: true }) shard?: number | null;
  @Field(() => [String], { nullable: true, description: `At most ${MAX_OPERATOR_BATCH} event ids.` }) eventIds?: string[] | null;
  @Field(() => String, { nullable: true }) aggregateId?: string | null;
  @Field(() => String, { nullable: true, description: 'Only events whose last error had this code.' }) errorCode?: string | null;
}

@ObjectType({ description: 'An outbox event whose attempts are used up; it waits for an operator replay.' })
export class ParkedOutboxEvent {
  @Field(() => String) eventId!: string;
  @Field(() => String) domain!: string;
  @Field(() => String) aggregateId!: string;
  @Field(() => Int) version!: number;
  @Field(() => String) store!: string;
  @Field(() => Int) shard!: number;
  @Field(() => Int) attempts!: number;
  @Field(() => String, { nullable: true }) lastErrorCode!: string | null;
  @Field(() => String, { nullable: true, description: 'A redacted summary; never a payload.' }) lastErrorSummary!: string | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) parkedAt!: Date | null;
  @Field(() => Int) replayCount!: number;
  @Field(() => String, { description: 'Opaque keyset cursor: pass it as `after` to get the events after this one.' }) cursor!: string;
}

@ObjectType({ description: 'An event returned to NEW by a replay.' })
export class ReplayedEvent {
  @Field(() => String) eventId!: string;
  @Field(() => String) domain!: string;
  @Field(() => String) aggregateId!: string;
  @Field(() => Int, { description: 'The original version: replays never invent a new one.' }) version!: number;
  @Field(() => String) store!: string;
  @Field(() => Int) shard!: number;
}

@ObjectType()
export class ReplayParkedEventsPayload {
  @Field(() => Int) count!: number;
  @Field(() => [ReplayedEvent]) events!: ReplayedEvent[];
}

const isPosition = (v: unknown): v is { s: number; c: number; e: string } => {
  const p = v as { s?: unknown; c?: unknown; e?: unknown } | null;
  if (typeof p !== 'object' || p === null) return false;
  return (
    Number.isInteger(p.s) &&
    (p.s as number) >= 0 &&
    Number.isSafeInteger(p.c) &&
    typeof p.e === 'string' &&
    p.e.length > 0 &&
    p.e.length <= 191
  );
};
const AFTER = { nullable: true, description: 'The `cursor` of the last event of the previous page.' } as const;

function operator(ctx: GatewayContext): NonNullable<GatewayContext['services']['outbox']> {
  return requireService(ctx, 'outbox');
}

/** "a or b", "a, b or c": the registered domains in a message. */
const oneOf = (names: readonly string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join(''));

export function toStoreFilter(f: ParkedEventFilter | null | undefined): StoreFilter {
  if (!f) return {};
  if (f.domain != null && !isDomain(f.domain))
    throw new ValidationError('domain', `domain must be ${oneOf(domainModules().map((m) => m.name))}`);
  if (f.store != null && f.store !== 'mysql' && f.store !== 'postgres')
    throw new ValidationError('store', 'store must be mysql or postgres');
  if (f.shard != null && (!Number.isInteger(f.shard) || f.shard < 0 || f.shard > 99))
    throw new ValidationError('shard', 'shard must be 0 to 99');
  if (
    f.eventIds != null &&
    (f.eventIds.length > MAX_OPERATOR_BATCH || f.eventIds.some((e) => e.length === 0 || e.length > 191 || hasControlCharacters(e)))
  )
    throw new ValidationError('eventIds', `eventIds must hold at most ${MAX_OPERATOR_BATCH} ids of 1 to 191 characters`);
  return {
    ...(f.domain != null ? { domain: f.domain } : {}),
    ...(f.store != null ? { store: f.store as StoreFilter['store'] } : {}),
    ...(f.shard != null ? { shard: f.shard } : {}),
    ...(f.eventIds != null ? { eventIds: f.eventIds } : {}),
    ...(f.aggregateId != null ? { aggregateId: text('aggregateId', f.aggregateId, 191) } : {}),
    ...(f.errorCode != null ? { errorCode: text('errorCode', f.errorCode, 64) } : {}),
  };
}

function limitOf(field: string, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > MAX_OPERATOR_BATCH)
    throw new ValidationError(field, `${field} must be 1 to ${MAX_OPERATOR_BATCH}`);
  return n;
}

@Resolver()
export class OutboxOperatorResolver {
  @Authorized('operate')
  @Query(() => [ParkedOutboxEvent], { description: 'Operator only. PARKED outbox events (attempts used up), oldest first.' })
  async parkedOutboxEvents(
    @Arg('filter', () => ParkedEventFilter, { nullable: true }) filter: ParkedEventFilter | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Ctx() ctx: GatewayContext,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ParkedOutboxEvent[]> {
    const p = decodeCursor(after, isPosition);
    const position = p && { store: p.s, createdAt: new Date(p.c), eventId: p.e };
    const events = await operator(ctx).listParkedPage(toStoreFilter(filter), limitOf('first', first), position);
    return events.map(({ position, ...e }) => ({
      ...e,
      cursor: encodeCursor({ s: position.store, c: position.createdAt.getTime(), e: position.eventId }),
    }));
  }

  @Authorized('operate')
  @Query(() => [ParkedOutboxEvent], {
    description: 'Operator only. The parked events of every store (same view as parkedOutboxEvents, under the operator dashboard name).',
  })
  async parkedEvents(
    @Arg('filter', () => ParkedEventFilter, { nullable: true }) filter: ParkedEventFilter | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Ctx() ctx: GatewayContext,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ParkedOutboxEvent[]> {
    return this.parkedOutboxEvents(filter, first, ctx, after);
  }

  @Authorized('operate')
  @Mutation(() => ReplayParkedEventsPayload, {
    description:
      'Operator only. Returns matching PARKED outbox events to NEW (attempts reset) with their original eventId and version, for the relays to deliver again.',
  })
  async replayParkedEvents(
    @Arg('filter', () => ParkedEventFilter) filter: ParkedEventFilter,
    @Arg('limit', () => Int, { defaultValue: 100 }) limit: number,
    @Ctx() ctx: GatewayContext,
  ): Promise<ReplayParkedEventsPayload> {
    const events = await operator(ctx).replayParked(toStoreFilter(filter), limitOf('limit', limit));
    ctx.logger.info(
      { count: events.length, filter: { ...toStoreFilter(filter), eventIds: filter.eventIds?.length } },
      'parked outbox events replayed by an operator',
    );
    return { count: events.length, events };
  }
}
