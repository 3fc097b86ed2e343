// OrderPlaced -> one orders row. Pure, with the same rules as the fitness mapper: the event's own
// version, exact decimals (4 fraction digits), times ClickHouse can hold, and an envelope that agrees
// with its data. Items become parallel arrays in the row.
import { z } from 'zod';
import type { EventEnvelope } from '../../publication/event';
import { canonicalDecimal } from '../../shared/decimal';
import { compiledCheck } from '../decode/compiledCheck';
import { describeIssues, rejected, validEventSchema, type Decoded } from '../decode/envelope';
import type { KafkaPosition, OrderItemRow, OrderRow } from '../rows';
import { isoToMs } from '../time';

export const ORDER_EVENT_TYPES: ReadonlySet<string> = new Set(['OrderPlaced']);
export const ORDER_MONEY_SCALE = 4;

const dataSchema = z.object({
  orderId: z.string().min(1).max(64),
  customerId: z.string().min(1).max(200),
  currency: z.string().regex(/^[A-Z]{3}$/),
  items: z
    .array(
      z.object({
        sku: z.string().min(1).max(200),
        quantity: z.number().int().min(1).max(4294967295),
        unitPrice: z.string().max(40),
      }),
    )
    .max(100000),
  total: z.string().max(40),
  itemCount: z.number().int().min(0).max(4294967295),
  createdAt: z.string().max(64),
});

type OrderData = z.output<typeof dataSchema>;

/** True for a JSON value that passes every schema check an order event gets (one compiled pass). */
export const isValidOrderEvent = compiledCheck(validEventSchema('orders', ORDER_EVENT_TYPES, dataSchema));

/** The stepwise mapping of a decoded envelope: names the first thing wrong with it. */
export function mapOrderEvent(e: EventEnvelope, at: KafkaPosition, ingestedAtMs: number): Decoded<OrderRow> {
  if (!ORDER_EVENT_TYPES.has(e.type)) return rejected('UNKNOWN_EVENT_TYPE', `order event type ${e.type.slice(0, 60)} is unknown`);
  const parsed = dataSchema.safeParse(e.data);
  if (!parsed.success)
    return rejected('INVALID_DATA', describeIssues(parsed.error.issues.map((i) => ({ ...i, path: ['data', ...i.path] }))));
  return orderRow(e, parsed.data, at, ingestedAtMs);
}

/** The mapping of an event `isValidOrderEvent` accepted: only the checks no schema expresses remain. */
export function mapValidOrderEvent(e: EventEnvelope & { data: OrderData }, at: KafkaPosition, ingestedAtMs: number): Decoded<OrderRow> {
  return orderRow(e, e.data, at, ingestedAtMs);
}

function orderRow(e: EventEnvelope, d: OrderData, at: KafkaPosition, ingestedAtMs: number): Decoded<OrderRow> {
  const total = canonicalDecimal(d.total, ORDER_MONEY_SCALE);
  if (total === undefined) return rejected('INVALID_DATA', 'data.total (not a decimal with at most 4 fraction digits)');
  const items: OrderItemRow[] = [];
  for (const [i, item] of d.items.entries()) {
    const unitPrice = canonicalDecimal(item.unitPrice, ORDER_MONEY_SCALE);
    if (unitPrice === undefined)
      return rejected('INVALID_DATA', `data.items.${i}.unitPrice (not a decimal with at most 4 fraction digits)`);
    items.push({ sku: item.sku, quantity: item.quantity, unitPrice });
  }
  const createdAtMs = isoToMs(d.createdAt);
  const sourceCommitMs = isoToMs(e.occurredAt);
  if (createdAtMs === undefined) return rejected('INVALID_DATA', 'data.createdAt (not an ISO-8601 time ClickHouse can store)');
  if (sourceCommitMs === undefined) return rejected('INVALID_ENVELOPE', 'occurredAt (not an ISO-8601 time ClickHouse can store)');
  if (d.orderId !== e.aggregateId) return rejected('INCONSISTENT_EVENT', 'aggregateId != data.orderId');
  return {
    ok: true,
    value: {
      orderId: d.orderId,
      customerId: d.customerId,
      currency: d.currency,
      total,
      itemCount: d.itemCount,
      items,
      version: e.version,
      isDeleted: e.isDeleted,
      createdAtMs,
      sourceCommitMs,
      ingestedAtMs,
      eventId: e.eventId,
      ...at,
    },
  };
}
