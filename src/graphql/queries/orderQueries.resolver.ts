// Order read queries: latest state only, each answer with its freshness marker (read before the data).
import { Arg, Authorized, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { OrderGroupBy } from '../../projections/read/sql/selectOrderReport';
import { ValidationError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { toConnection } from '../connection';
import { decodeCursor, encodeCursor, pageSize } from '../../shared/cursor';
import { loadersFor } from './loaders';
import { OrderConnection, OrderFilter, OrderLookup, OrderReport, OrderReportGroupBy } from './orders.types';

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

@Resolver()
export class OrderQueriesResolver {
  @Authorized('read')
  @Query(() => OrderLookup, { description: 'The latest state of one order (null when not projected yet), with its freshness.' })
  async order(@Arg('orderId', () => ID) orderId: string, @Ctx() ctx: GatewayContext): Promise<OrderLookup> {
    const id = orderIdArg(orderId);
    const l = loadersFor(ctx);
    const freshness = await l.orderFreshness.load(id);
    return { orderId: id, order: await l.orderById.load(id), freshness };
  }

  @Authorized('read')
  @Query(() => OrderConnection, { description: 'Latest orders matching the filter, newest first, keyset-paginated.' })
  async orders(
    @Arg('filter', () => OrderFilter, { nullable: true }) filter: OrderFilter | null,
    @Arg('first', () => Int, { nullable: true, description: 'Page size (default 50, at most GRAPHQL_MAX_PAGE_SIZE).' })
    first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<OrderConnection> {
    const l = loadersFor(ctx);
    const n = pageSize(first, l.readModels.maxPageSize);
    const cursor = decodeCursor(after, isOrderCursor);
    const f = filter ?? {};
    window(f.from, f.to);
    const freshness = await l.readModels.freshness.forScope({
      domain: 'orders',
      dataEquals: {
        ...(f.customerId != null ? { customerId: f.customerId } : {}),
        ...(f.currency != null ? { currency: f.currency } : {}),
      },
      ...(f.from ? { createdFrom: f.from } : {}),
      ...(f.to ? { createdTo: f.to } : {}),
    });
    const page = await l.readModels.ordersPage(
      { customerId: f.customerId ?? undefined, currency: f.currency ?? undefined, from: f.from ?? undefined, to: f.to ?? undefined },
      n,
      cursor && { createdAtMs: cursor.c, orderId: cursor.o },
    );
    for (const v of page.nodes) l.orderById.prime(v.orderId, v);
    const cursorOf = (v: (typeof page.nodes)[number]) => encodeCursor({ c: v.createdAt.getTime(), o: v.orderId });
    return Object.assign(toConnection(page.nodes, cursorOf, { hasNextPage: page.hasNextPage, after }), { freshness });
  }

  @Authorized('report')
  @Query(() => OrderReport, {
    description: 'Analyst report over orders created in [from, to): counts, units and exact totals per day (and currency) or per currency.',
  })
  async orderReport(
    @Arg('from', () => GraphQLDateTimeISO) from: Date,
    @Arg('to', () => GraphQLDateTimeISO) to: Date,
    @Arg('groupBy', () => OrderReportGroupBy) groupBy: OrderGroupBy,
    @Ctx() ctx: GatewayContext,
  ): Promise<OrderReport> {
    window(from, to);
    if (!to || to.getTime() - from.getTime() > MAX_REPORT_DAYS * 86400000)
      throw new ValidationError('to', `a report covers at most ${MAX_REPORT_DAYS} days`);
    if (from.getTime() < 0) throw new ValidationError('from', 'from must not be before 1970');
    const l = loadersFor(ctx);
    const freshness = await l.readModels.freshness.forScope({ domain: 'orders', createdFrom: from, createdTo: to });
    return { from, to, groupBy, groups: await l.readModels.orderReport(from, to, groupBy), freshness };
  }
}
