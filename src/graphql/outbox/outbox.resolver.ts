// Operator-only outbox views and actions: list PARKED events and replay them. A replay returns
// events to NEW with their original eventId and version; the relays deliver them again.
import { Arg, Authorized, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { MAX_OPERATOR_BATCH, type OutboxOperator, type StoreFilter } from '../../relay/outbox/operator';
import { TidemarkError, ValidationError } from '../../shared/errors';
import type { GatewayContext } from '../context';

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

function operator(ctx: GatewayContext): OutboxOperator {
  const o = ctx.services.outbox;
  if (!o) throw new TidemarkError('STORE_UNAVAILABLE', 'the outbox is not available on this instance');
  return o;
}

function text(field: string, v: string | null | undefined, max: number): string | undefined {
  if (v == null) return undefined;
  if (v.length === 0 || v.length > max || /[\u0000-\u001f]/.test(v)) throw new ValidationError(field, `${field} must be 1 to ${max} characters without control characters`);
  return v;
}

export function toStoreFilter(f: ParkedEventFilter | null | undefined): StoreFilter {
  if (!f) return {};
  if (f.domain != null && f.domain !== 'fitness' && f.domain !== 'orders') throw new ValidationError('domain', 'domain must be fitness or orders');
  if (f.store != null && f.store !== 'mysql' && f.store !== 'postgres') throw new ValidationError('store', 'store must be mysql or postgres');
  if (f.shard != null && (!Number.isInteger(f.shard) || f.shard < 0 || f.shard > 99)) throw new ValidationError('shard', 'shard must be 0 to 99');
  if (f.eventIds != null && (f.eventIds.length > MAX_OPERATOR_BATCH || f.eventIds.some((e) => e.length === 0 || e.length > 191 || /[\u0000-\u001f]/.test(e))))
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
  if (!Number.isInteger(n) || n < 1 || n > MAX_OPERATOR_BATCH) throw new ValidationError(field, `${field} must be 1 to ${MAX_OPERATOR_BATCH}`);
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
  ): Promise<ParkedOutboxEvent[]> {
    return operator(ctx).listParked(toStoreFilter(filter), limitOf('first', first));
  }

  @Authorized('operate')
  @Query(() => [ParkedOutboxEvent], { description: 'Operator only. The parked events of every store (same view as parkedOutboxEvents, under the operator dashboard name).' })
  async parkedEvents(
    @Arg('filter', () => ParkedEventFilter, { nullable: true }) filter: ParkedEventFilter | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Ctx() ctx: GatewayContext,
  ): Promise<ParkedOutboxEvent[]> {
    return this.parkedOutboxEvents(filter, first, ctx);
  }

  @Authorized('operate')
  @Mutation(() => ReplayParkedEventsPayload, {
    description: 'Operator only. Returns matching PARKED outbox events to NEW (attempts reset) with their original eventId and version, for the relays to deliver again.',
  })
  async replayParkedEvents(
    @Arg('filter', () => ParkedEventFilter) filter: ParkedEventFilter,
    @Arg('limit', () => Int, { defaultValue: 100 }) limit: number,
    @Ctx() ctx: GatewayContext,
  ): Promise<ReplayParkedEventsPayload> {
    const events = await operator(ctx).replayParked(toStoreFilter(filter), limitOf('limit', limit));
    ctx.logger.info({ count: events.length, filter: { ...toStoreFilter(filter), eventIds: filter.eventIds?.length } }, 'parked outbox events replayed by an operator');
    return { count: events.length, events };
  }
}
