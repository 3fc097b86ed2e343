// The orders event contract: the data of OrderPlaced in each schema version, and the upcaster between
// them. The rules live here once: the projector decodes by them and schema/events/orders/ is generated
// from them (npm run events:check). A version only adds fields.
import { z } from 'zod';
import type { EventContract } from '../contract/eventContract';

export const ORDER_EVENT_TYPES: ReadonlySet<string> = new Set(['OrderPlaced']);

/** Version 1: the order as placed; amounts as exact decimal strings, times as ISO-8601 UTC. */
const v1 = z.object({
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

/** The sales channels an order may name (web shop, mobile app, point of sale, the operators' API). */
export const ORDER_CHANNELS = ['web', 'mobile', 'store', 'api'] as const;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];

/**
 * Version 2 adds who placed the order (the token subject; null for orders placed before it was
 * recorded) and the channel it came through (null when the client did not say).
 */
const v2 = v1.extend({
  changedBy: z.string().min(1).max(200).nullable(),
  channel: z.enum(ORDER_CHANNELS).nullable(),
});

export type OrderEventSchema = typeof v2;
export type OrderEventDataV2 = z.output<typeof v2>;

export const ORDER_EVENT_CONTRACT: EventContract<typeof v2> = {
  domain: 'orders',
  label: 'order',
  eventTypes: ORDER_EVENT_TYPES,
  versions: [v1, v2],
  // A version-1 event never said who or through which channel: both are unknown, not invented.
  upcasters: [{ from: 1, to: 2, up: (d) => ({ ...d, changedBy: null, channel: null }) }],
};
