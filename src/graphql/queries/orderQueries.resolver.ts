// Order read queries: latest state only, each answer with its freshness marker (read before the data).
// Every read is the caller's (loadersFor carries principalOf(ctx)); the read models apply the orders
// policy: a customer's lookup of another customer's order is null, its pages hold only its own orders.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { maySeeWriters } from '../../auth/principal';
import { principalOf } from '../auth';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { OrderGroupBy } from '../../domains/orders/read/selectOrderReport';
import { ValidationError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { toConnection } from '../connection';
import { decodeCursor, encodeCursor, pageSize } from '../../shared/cursor';
import { loadersFor } from './loaders';
import { awaitConsistency, ConsistencyInput, withWrites } from './consistency.types';
import { orderFilterStrings, requireOrderBound, selectsRows } from './listBounds';
import { OrderConnection, OrderFilter, OrderLookup, OrderReport, OrderReportGroupBy, OrderView } from './orders.types';

const MAX_REPORT_DAYS = 3660;
const isOrderCursor = (v: unknown): v is { c: number; o: string } =>
  typeof v === 'object' &&
  v !== null &&
  Number.isSafeInteger((v as { c?: unknown }).c) &&
  (v as { c: number }).c >= 0 &&
  typeof (v as { o?: unknown }).o === 'string';

function orderIdArg(id: string): string {
  if (id.length === 0 || id.length > 64) throw new ValidationError('orderId', 'orderId must be 1-64 characters');
  return id;
}

function window(from: Date | null | undefined, to: Date | null | undefined): void {
  if (from && to && from.getTime() >= to.getTime()) throw new ValidationError('to', 'to must be after from');
}

@Resolver(() => OrderView)
export class OrderQueriesResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Token subject that placed the order. Shown to operators and services only: null for every other role, and for orders ' +
      'whose event did not carry it (schema version 1).',
  })
  changedBy(@Root() r: OrderView, @Ctx() ctx: GatewayContext): string | null {
    return maySeeWriters(principalOf(ctx)) ? r.changedBy : null;
  }

  @Authorized('orders:read')
  @Query(() => OrderLookup, { description: 'The latest state of one order (null when not projected yet), with its freshness.' })
  async order(
    @Arg('orderId', () => ID) orderId: string,
    @Ctx() ctx: GatewayContext,
    @Arg('consistency', () => ConsistencyInput, { nullable: true, description: 'Wait for your own writes first (consistencyToken).' })
    consistency?: ConsistencyInput | null,
  ): Promise<OrderLookup> {
    const id = orderIdArg(orderId);
    const l = loadersFor(ctx);
    const written = await awaitConsistency(ctx, consistency);
    const freshness = withWrites(await l.orderFreshness.load(id), written);
    return { orderId: id, order: await l.orderById.load(id), freshness };
  }

  @Authorized('orders:read')
  @Query(() => OrderConnection, { description: 'Latest orders matching the filter, newest first, keyset-paginated.' })
  async orders(
    @Arg('filter', () => OrderFilter, { nullable: true }) filter: OrderFilter | null,
    @Arg('first', () => Int, { nullable: true, description: 'Page size (default 50, at most GRAPHQL_MAX_PAGE_SIZE).' })
    first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GatewayContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('consistency', () => ConsistencyInput, { nullable: true, description: 'Wait for your own writes first (consistencyToken).' })
    consistency?: ConsistencyInput | null,
  ): Promise<OrderConnection> {
    const l = loadersFor(ctx);
    const n = pageSize(first, l.readModels.maxPageSize);
    const cursor = decodeCursor(after, isOrderCursor);
    const f = filter ?? {};
    window(f.from, f.to);
    orderFilterStrings(f);
    const rows = selectsRows(info);
    if (rows) requireOrderBound(l.caller, f, l.readModels.maxListWindowDays);
    const written = await awaitConsistency(ctx, consistency);
    const marker = await l.readModels.freshnessFor(l.caller, 'read', {
      domain: 'orders',
      dataEquals: {
        ...(f.customerId != null ? { customerId: f.customerId } : {}),
        ...(f.currency != null ? { currency: f.currency } : {}),
      },
      ...(f.from ? { createdFrom: f.from } : {}),
      ...(f.to ? { createdTo: f.to } : {}),
    });
    const freshness = withWrites(marker, written);
    const page = rows
      ? await l.readModels.ordersPage(
          l.caller,
          { customerId: f.customerId ?? undefined, currency: f.currency ?? undefined, from: f.from ?? undefined, to: f.to ?? undefined },
          n,
          cursor && { createdAtMs: cursor.c, orderId: cursor.o },
        )
      : { nodes: [], hasNextPage: false };
    for (const v of page.nodes) l.orderById.prime(v.orderId, v);
    const cursorOf = (v: (typeof page.nodes)[number]) => encodeCursor({ c: v.createdAt.getTime(), o: v.orderId });
    return Object.assign(toConnection(page.nodes, cursorOf, { hasNextPage: page.hasNextPage, after }), { freshness });
  }

  @Authorized('orders:report')
  @Query(() => OrderReport, {
    description:
      'Report over orders created in [from, to): counts, units and exact totals per day (and currency) or per currency; groups ' +
      'with too few customers are suppressed (counted in suppressedGroups).',
  })
  async orderReport(
    @Arg('from', () => GraphQLDateTimeISO) from: Date,
    @Arg('to', () => GraphQLDateTimeISO) to: Date,
    @Arg('groupBy', () => OrderReportGroupBy) groupBy: OrderGroupBy,
    @Ctx() ctx: GatewayContext,
    @Arg('consistency', () => ConsistencyInput, { nullable: true, description: 'Wait for your own writes first (consistencyToken).' })
    consistency?: ConsistencyInput | null,
  ): Promise<OrderReport> {
    window(from, to);
    if (!to || to.getTime() - from.getTime() > MAX_REPORT_DAYS * 86400000)
      throw new ValidationError('to', `a report covers at most ${MAX_REPORT_DAYS} days`);
    if (from.getTime() < 0) throw new ValidationError('from', 'from must not be before 1970');
    const l = loadersFor(ctx);
    const written = await awaitConsistency(ctx, consistency);
    const freshness = withWrites(
      await l.readModels.freshnessFor(l.caller, 'report', { domain: 'orders', createdFrom: from, createdTo: to }),
      written,
    );
    return { from, to, groupBy, ...(await l.readModels.orderReport(l.caller, { from, to, groupBy })), freshness };
  }
}
