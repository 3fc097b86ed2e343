// GraphQL of the orders write path: `placeOrder`. Amounts travel as the shared Decimal scalar (exact
// strings); the payload says what happened to the order's event (`outcome`) in the words of the
// kafka-first design, plus the cross-domain `publication` (eventId and state).
import { Arg, Authorized, Ctx, Field, InputType, Int, Mutation, ObjectType, Resolver, registerEnumType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { GatewayContext } from '../context';
import { Publication } from '../publication';
import { DecimalScalar } from '../scalars';
import type { PlaceOrderOutcome, PlaceOrderResult } from '../../domains/orders/ordersService';
import { requireService } from '../shared/services';

const OUTCOMES: Record<PlaceOrderOutcome, PlaceOrderOutcome> = {
  PUBLISHED_DIRECT: 'PUBLISHED_DIRECT',
  FALLBACK_STORED: 'FALLBACK_STORED',
  FALLBACK_STORE_FAILED: 'FALLBACK_STORE_FAILED',
  OUTBOX_STORED: 'OUTBOX_STORED',
  ALREADY_PLACED: 'ALREADY_PLACED',
};
registerEnumType(OUTCOMES, {
  name: 'PlaceOrderOutcome',
  description:
    'What happened to the OrderPlaced event. PUBLISHED_DIRECT: Kafka acknowledged it, no extra row. ' +
    'FALLBACK_STORED: no acknowledgement within the deadline (failed or unknown); a NOT_PUBLISHED row was stored for the relay. ' +
    'FALLBACK_STORE_FAILED: that write failed too; the order stands and the reconciler rebuilds the row after its grace period. ' +
    'OUTBOX_STORED: the domain runs the outbox strategy. ALREADY_PLACED: a retry with a used idempotency key; nothing new was written or sent.',
  valuesConfig: {
    PUBLISHED_DIRECT: { description: 'Kafka acknowledged a direct attempt.' },
    FALLBACK_STORED: { description: 'A NOT_PUBLISHED event_publications row holds the event for the relay.' },
    FALLBACK_STORE_FAILED: { description: 'Neither Kafka nor the fallback store took the event; the reconciler will.' },
    OUTBOX_STORED: { description: 'Committed to the outbox with the order (outbox strategy).' },
    ALREADY_PLACED: { description: 'This idempotency key placed the order earlier.' },
  },
});

@InputType({ description: 'One line of an order.' })
export class OrderLineInput {
  @Field(() => String, { description: 'Up to 64 characters.' })
  sku!: string;

  @Field(() => Int, { description: 'A positive whole number, at most 100000.' })
  quantity!: number;

  @Field(() => DecimalScalar, { description: 'Price of one unit: not negative, at most 4 decimal places, e.g. "19.90".' })
  unitPrice!: string;
}

@InputType({ description: 'An order to place.' })
export class PlaceOrderInput {
  @Field(() => String, { description: 'Up to 64 characters.' })
  customerId!: string;

  @Field(() => String, { description: 'ISO 4217 code in upper case, e.g. "EUR".' })
  currency!: string;

  @Field(() => String, {
    description: 'Chosen by the client (up to 128 characters). Retrying with the same key and content returns the first order.',
  })
  idempotencyKey!: string;

  @Field(() => [OrderLineInput], { description: 'At least one line (ORDERS_MAX_ITEMS at most).' })
  items!: OrderLineInput[];
}

@ObjectType({ description: 'A line of a placed order.' })
export class PlacedOrderLine {
  @Field(() => String) sku!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => DecimalScalar, { description: 'Canonical, exactly 4 decimals.' }) unitPrice!: string;
}

@ObjectType({ description: 'An order as the authoritative store recorded it.' })
export class PlacedOrder {
  @Field(() => String) orderId!: string;
  @Field(() => String) customerId!: string;
  @Field(() => String) currency!: string;
  @Field(() => [PlacedOrderLine]) items!: PlacedOrderLine[];
  @Field(() => DecimalScalar, { description: 'Exact sum of quantity x unitPrice, 4 decimals.' }) total!: string;
  @Field(() => Int, { description: 'Units ordered (sum of the line quantities).' }) itemCount!: number;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType({ description: 'The placed order and what happened to its OrderPlaced event.' })
export class PlaceOrderPayload {
  @Field(() => PlacedOrder) order!: PlacedOrder;
  @Field(() => String, { description: 'order-placed:{orderId}:v1, stable across retries, relays and reconciliation.' }) eventId!: string;
  @Field(() => OUTCOMES) outcome!: PlaceOrderOutcome;
  @Field(() => Publication, { nullable: true, description: 'The publication state now; null on a replay when no publication row exists.' })
  publication!: Publication | null;
  @Field(() => Boolean, { description: 'True when this request repeated an earlier one (same idempotency key).' }) replayed!: boolean;
}

@Resolver()
export class OrdersResolver {
  @Authorized('write')
  @Mutation(() => PlaceOrderPayload, {
    description:
      'Places an order: one row in the orders store, then the OrderPlaced event is published by the orders strategy (kafka-first ' +
      'by default). Bounded response time: direct attempts stop at KAFKA_FIRST_DEADLINE_MS.',
  })
  async placeOrder(@Arg('input', () => PlaceOrderInput) input: PlaceOrderInput, @Ctx() ctx: GatewayContext): Promise<PlaceOrderPayload> {
    const r: PlaceOrderResult = await requireService(ctx, 'orders').placeOrder({
      customerId: input.customerId,
      currency: input.currency,
      idempotencyKey: input.idempotencyKey,
      items: input.items.map((i) => ({ sku: i.sku, quantity: i.quantity, unitPrice: i.unitPrice })),
    });
    return { order: r.order, eventId: r.eventId, outcome: r.outcome, publication: r.publication, replayed: r.replayed };
  }
}
