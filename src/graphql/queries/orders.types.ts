// GraphQL types of the orders read model (latest projected state).
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { OrderGroupBy } from '../../domains/orders/read/selectOrderReport';
import type { OrderChannel } from '../../domains/orders/eventContract';
import { ORDER_CHANNEL_VALUES } from '../orders/orderChannel';
import { DecimalScalar } from '../scalars';
import { ConnectionOf } from '../connection';
import { ONCE_PER_ANSWER } from '../connection';
import { Freshness } from './freshness.types';

@ObjectType({ description: 'A line of a projected order.' })
export class OrderViewLine {
  @Field(() => String) sku!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => DecimalScalar, { description: 'Exact, 4 decimals.' }) unitPrice!: string;
}

@ObjectType({ description: 'The latest state of an order, as projected into ClickHouse.' })
export class OrderView {
  @Field(() => ID) orderId!: string;
  @Field(() => String) customerId!: string;
  @Field(() => String) currency!: string;
  @Field(() => DecimalScalar, { description: 'Exact, 4 decimals.' }) total!: string;
  @Field(() => Int) itemCount!: number;
  // Lines come with the order's own row (no extra query), so they do not multiply the cost.
  @Field(() => [OrderViewLine], { complexity: ({ childComplexity }) => 1 + childComplexity }) items!: OrderViewLine[];
  @Field(() => Int) version!: number;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'Commit time of this version in the orders store.' }) updatedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'When the projector wrote this version to ClickHouse.' }) ingestedAt!: Date;
  @Field(() => ORDER_CHANNEL_VALUES, { nullable: true, description: 'The sales channel; null when not said or not known.' })
  channel!: OrderChannel | null;
  /** Resolved by OrderQueriesResolver.changedBy (operators and services only). */
  changedBy!: string | null;
}

@ObjectType({ description: 'One order looked up by id, with the freshness of that answer.' })
export class OrderLookup {
  @Field(() => ID) orderId!: string;
  @Field(() => OrderView, { nullable: true, description: 'Null when the order does not exist or is not projected yet (see freshness).' })
  order!: OrderView | null;
  @Field(() => Freshness, {
    complexity: ONCE_PER_ANSWER,
    description: 'Scope: this order (its pending publications) and the orders topic.',
  })
  freshness!: Freshness;
}

@InputType({ description: 'All given fields must match; from/to bound createdAt as [from, to).' })
export class OrderFilter {
  @Field(() => String, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) currency?: string | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) from?: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) to?: Date | null;
}

@ObjectType({ description: 'A page of latest orders, newest first.' })
export class OrderConnection extends ConnectionOf(OrderView, 'Order') {
  @Field(() => Freshness, { complexity: ONCE_PER_ANSWER, description: 'Scope: the filter and the orders topic.' }) freshness!: Freshness;
}

export const OrderReportGroupBy: Record<OrderGroupBy, OrderGroupBy> = { DAY: 'DAY', CURRENCY: 'CURRENCY', CHANNEL: 'CHANNEL' };
registerEnumType(OrderReportGroupBy, {
  name: 'OrderReportGroupBy',
  description: 'DAY groups by UTC day and currency; CURRENCY by currency; CHANNEL by sales channel and currency (UNKNOWN: not said).',
});

@ObjectType({ description: 'Orders of one group (each order counted once, at its latest version).' })
export class OrderReportGroup {
  @Field(() => String, { description: 'YYYY-MM-DD (DAY), the currency (CURRENCY) or the channel (CHANNEL: WEB, ..., UNKNOWN).' })
  key!: string;
  @Field(() => String, { description: 'Totals are never summed across currencies.' }) currency!: string;
  @Field(() => Int) orderCount!: number;
  @Field(() => Int, { description: 'Units ordered.' }) itemCount!: number;
  @Field(() => DecimalScalar, { description: 'Exact sum of order totals.' }) total!: string;
  @Field(() => DecimalScalar, { description: 'Exact mean order total, 4 decimals.' }) averageTotal!: string;
}

@ObjectType({ description: "A report over orders created in [from, to), within the caller's report scope." })
export class OrderReport {
  @Field(() => GraphQLDateTimeISO) from!: Date;
  @Field(() => GraphQLDateTimeISO) to!: Date;
  @Field(() => OrderReportGroupBy) groupBy!: OrderGroupBy;
  @Field(() => [OrderReportGroup], { description: 'The groups shown: each has at least the minimum number of distinct customers.' })
  groups!: OrderReportGroup[];
  @Field(() => Int, {
    description:
      'Groups not shown because they have fewer distinct customers than the minimum group size for your role ' +
      '(REPORT_MIN_GROUP_SIZE for analysts; 0 for others, who see every group).',
  })
  suppressedGroups!: number;
  @Field(() => Freshness, { complexity: ONCE_PER_ANSWER, description: 'Scope: orders created in the window.' }) freshness!: Freshness;
}
