// GraphQL of the orders write path: `placeOrder`. Amounts travel as the shared Decimal scalar (exact
// strings); the payload says what happened to the order's event (`outcome`) in the words of the
// kafka-first design, plus the cross-domain `publication` (eventId and state). The caller's principal
// goes to the service, which decides whose order it is; changedBy is shown to operators and services only.
import { Arg, Authorized, Ctx, Field, InputType, Int, Mutation, ObjectType, Resolver, registerEnumType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { maySeeWriters } from '../../auth/principal';
import type { OrderChannel } from '../../domains/orders/eventContract';
import { principalOf } from '../auth';
import type { GatewayContext } from '../context';
import { Publication } from '../publication';
import { DecimalScalar } from '../scalars';
import { channelOrNull, ORDER_CHANNEL_VALUES } from './orderChannel';
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
  @Field(() => String, {
    nullable: true,
    description:
      'Up to 64 characters. A customer may omit it (its token customer is used) and may name only itself (FORBIDDEN otherwise); ' +
      'operators and services must give it.',
  })
  customerId?: string | null;

  @Field(() => String, { description: 'ISO 4217 code in upper case, e.g. "EUR".' })
  currency!: string;

  @Field(() => String, {
    description:
      'Chosen by the client (up to 128 characters), unique per caller: retrying with the same key and content returns the first ' +
      'order; another caller using the same key places an order of its own.',
  })
  idempotencyKey!: string;

  @Field(() => [OrderLineInput], { description: 'At least one line (ORDERS_MAX_ITEMS at most).' })
  items!: OrderLineInput[];

  @Field(() => ORDER_CHANNEL_VALUES, {
    nullable: true,
    description: 'The sales channel; part of the request: the same idempotency key with another channel is IDEMPOTENCY_CONFLICT.',
  })
  channel?: OrderChannel | null;
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
  @Field(() => String, {
    nullable: true,
    description:
      'Token subject that placed the order. Shown to operators and services only: null for every other role, and for orders ' +
      'placed before it was recorded.',
  })
  changedBy!: string | null;
  @Field(() => ORDER_CHANNEL_VALUES, { nullable: true, description: 'The sales channel; null when the client did not say.' })
  channel!: OrderChannel | null;
}

@ObjectType({ description: 'The placed order and what happened to its OrderPlaced event.' })
export class PlaceOrderPayload {
  @Field(() => PlacedOrder) order!: PlacedOrder;
  @Field(() => String, { description: 'order-placed:{orderId}:v1, stable across retries, relays and reconciliation.' }) eventId!: string;
  @Field(() => OUTCOMES) outcome!: PlaceOrderOutcome;
  @Field(() => Publication, { nullable: true, description: 'The publication state now; null on a replay when no publication row exists.' })
  publication!: Publication | null;
  @Field(() => Boolean, { description: 'True when this request repeated an earlier one (same idempotency key).' }) replayed!: boolean;
  @Field(() => String, {
    description:
      'Opaque token naming the order written (a replay: the first placement). Pass it in `consistency.atLeast` of a read, or ' +
      'to writeVisible, to read your own write; valid for your own token subject only.',
  })
  consistencyToken!: string;
}

@Resolver()
export class OrdersResolver {
  @Authorized('orders:write')
  @Mutation(() => PlaceOrderPayload, {
    description:
      'Places an order: one row in the orders store, then the OrderPlaced event is published by the orders strategy (kafka-first ' +
      'by default). Bounded response time: direct attempts stop at KAFKA_FIRST_DEADLINE_MS.',
  })
  async placeOrder(@Arg('input', () => PlaceOrderInput) input: PlaceOrderInput, @Ctx() ctx: GatewayContext): Promise<PlaceOrderPayload> {
    const actor = principalOf(ctx);
    const consistency = requireService(ctx, 'consistency'); // before writing: never a committed order with a failed answer
    const r: PlaceOrderResult = await requireService(ctx, 'orders').placeOrder(
      {
        customerId: input.customerId ?? undefined,
        currency: input.currency,
        idempotencyKey: input.idempotencyKey,
        items: input.items.map((i) => ({ sku: i.sku, quantity: i.quantity, unitPrice: i.unitPrice })),
        channel: input.channel ?? null,
      },
      actor,
    );
    const order = { ...r.order, changedBy: maySeeWriters(actor) ? r.order.changedBy : null, channel: channelOrNull(r.order.channel) };
    // Orders are written once (version 1); a replay names the same order, so the same write.
    const consistencyToken = consistency.tokenFor(actor, [{ domain: 'orders', aggregateId: r.order.orderId, version: 1 }]);
    return { order, eventId: r.eventId, outcome: r.outcome, publication: r.publication, replayed: r.replayed, consistencyToken };
  }
}
