// Orders placed through the real write path (GraphQL -> PostgreSQL -> kafka-first publication ->
// Kafka -> projector), for an order window that must hold while it is busy: a seed placed at bounded
// concurrency, then an open loop of placements at a fixed rate. Orders are never changed after they
// are placed (there is no such mutation): each acknowledged order is kept with the total the read model
// must show and its consistency token. Every order carries an idempotency key, so a seed placement
// that got no answer is asked again without placing twice.
import { RywPlaceOrderDocument } from '../generated/graphql';
import { execute, type GraphQLResponse } from './graphqlClient';
import { openLoop } from './openLoop';

export interface PlacedOrder {
  /** The total the read model must show (4 decimals). */
  total: string;
  consistencyToken: string;
}

export interface OrderArrivals {
  /** orderId -> the acknowledged order (the seeded ones included). */
  readonly placed: ReadonlyMap<string, PlacedOrder>;
  /** Placements this load had acknowledged so far. */
  ok(): number;
  failed(): number;
  /** A few distinct failure codes or messages (never payloads). */
  failures(): string[];
  /** Stops placing orders and waits for those in flight. */
  stop(): Promise<{ ok: number; failed: number }>;
}

const why = (r: GraphQLResponse<unknown>) => String(r.errors?.[0]?.extensions?.code ?? r.errors?.[0]?.message ?? `HTTP ${r.status}`);

type Placement = { orderId: string; order: PlacedOrder; why?: undefined } | { orderId?: undefined; why: string };

/** Places order `key` (1 to 3 units at 9.5); the acknowledged order, or why not. */
async function place(url: string, headers: Record<string, string>, customerId: string, key: string, i: number): Promise<Placement> {
  const quantity = 1 + (i % 3);
  const input = { customerId, currency: 'EUR', idempotencyKey: key, items: [{ sku: 'SKU-RB', quantity, unitPrice: '9.5' }] };
  try {
    const r = await execute(url, RywPlaceOrderDocument, { input }, headers);
    if (r.errors || !r.data) return { why: why(r) };
    const p = r.data.placeOrder;
    return { orderId: p.order.orderId, order: { total: (9.5 * quantity).toFixed(4), consistencyToken: p.consistencyToken } };
  } catch (err) {
    return { why: err instanceof Error ? err.message : String(err) };
  }
}

export async function seedOrders(o: {
  url: string;
  headers: Record<string, string>;
  customerId: string;
  count: number;
  concurrency: number;
}): Promise<Map<string, PlacedOrder>> {
  const placed = new Map<string, PlacedOrder>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < o.count; i = next++) {
      for (let attempt = 1; ; attempt++) {
        const r = await place(o.url, o.headers, o.customerId, `${o.customerId}-seed-${i}`, i);
        if (r.orderId !== undefined) {
          placed.set(r.orderId, r.order);
          break;
        }
        if (attempt >= 3) throw new Error(`placing seed order ${i} failed: ${r.why}`);
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return placed;
}

export function startOrderArrivals(o: {
  url: string;
  headers: Record<string, string>;
  customerId: string;
  /** The seeded orders: taken over by the load. */
  placed: Map<string, PlacedOrder>;
  perSecond: number;
}): OrderArrivals {
  let ok = 0;
  let failed = 0;
  const failures = new Set<string>();
  const arrive = async (i: number) => {
    const r = await place(o.url, o.headers, o.customerId, `${o.customerId}-live-${i}`, i);
    if (r.orderId !== undefined) {
      o.placed.set(r.orderId, r.order);
      ok++;
    } else {
      failed++;
      if (failures.size < 5) failures.add(r.why.slice(0, 160));
    }
  };
  const loop = openLoop(o.perSecond, arrive);
  return {
    placed: o.placed,
    ok: () => ok,
    failed: () => failed,
    failures: () => [...failures],
    async stop() {
      await loop.stop();
      return { ok, failed };
    },
  };
}
