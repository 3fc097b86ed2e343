// Steady traffic for a rolling upgrade (test/e2e/rollingUpgrade.e2e.spec.ts): an open loop of fitness
// results (each with the time the test was taken) and orders (each with a channel), alternating, through
// whichever gateway `url()` names now (a deploy swaps it), and a reader asking both domains' freshness
// every 100 ms. Every acknowledged write is kept, to be found in the read model at the end; every
// freshness answer is counted, STALE ones with their reason. A request whose connection dropped (a
// gateway being replaced) is counted apart: it was not acknowledged and says nothing of freshness.
import { UpgradePlaceOrderDocument, UpgradeReadsDocument, UpgradeRecordDocument } from '../generated/graphql';
import { sleep } from '../../src/shared/lifecycle';
import { execute, isFetchFailure } from './graphqlClient';
import { openLoop } from './openLoop';

export const MEASURED_AT = '2026-11-30T09:15:00.000Z';

export interface UpgradeTraffic {
  /** Acknowledged writes: fitness dataIds and orderIds, with when they were acknowledged (ms). */
  readonly fitness: Map<string, number>;
  readonly orders: Map<string, number>;
  /** Freshness answers by status, both domains. */
  readonly statuses: Record<string, number>;
  /** Up to five STALE answers: domain and reason. */
  readonly stale: string[];
  /** Writes refused (by code) and requests whose connection dropped. */
  readonly refused: string[];
  dropped(): number;
  stop(): Promise<void>;
}

export function startUpgradeTraffic(o: {
  url: () => string;
  writer: Record<string, string>;
  reader: Record<string, string>;
  detectId: number;
  customerId: string;
  perSecond: number;
}): UpgradeTraffic {
  const t = { fitness: new Map<string, number>(), orders: new Map<string, number>(), statuses: {} as Record<string, number> };
  const stale: string[] = [];
  const refused: string[] = [];
  let dropped = 0;
  let stopped = false;
  const transport = (err: unknown) => {
    if (!isFetchFailure(err)) throw err;
    dropped++;
    return undefined;
  };

  const write = async (i: number) => {
    if (i % 2 === 0) {
      const input = {
        detectId: o.detectId,
        projectId: 3,
        userId: 600_000 + i,
        schoolId: 1 + (i % 20),
        grade: 5,
        result: '2.21',
        unit: 'm',
      };
      const r = await execute(o.url(), UpgradeRecordDocument, { input: { ...input, measuredAt: MEASURED_AT } }, o.writer).catch(transport);
      if (r?.data) t.fitness.set(r.data.recordFitnessResult.result.dataId, Date.now());
      else if (r) refused.push(String(r.errors?.[0]?.extensions?.code ?? r.status));
    } else {
      const input = {
        customerId: o.customerId,
        currency: 'EUR',
        idempotencyKey: `upgrade-${o.customerId}-${i}`,
        items: [{ sku: 'SKU-UP', quantity: 1, unitPrice: '9.5' }],
        channel: 'MOBILE' as const,
      };
      const r = await execute(o.url(), UpgradePlaceOrderDocument, { input }, o.writer).catch(transport);
      if (r?.data) t.orders.set(r.data.placeOrder.order.orderId, Date.now());
      else if (r) refused.push(String(r.errors?.[0]?.extensions?.code ?? r.status));
    }
  };
  const loop = openLoop(o.perSecond, write);

  const read = async () => {
    while (!stopped) {
      const r = await execute(o.url(), UpgradeReadsDocument, { detectId: o.detectId, customerId: o.customerId }, o.reader).catch(transport);
      if (r?.data) {
        for (const [domain, f] of [
          ['fitness', r.data.fitnessResults.freshness],
          ['orders', r.data.orders.freshness],
        ] as const) {
          t.statuses[f.status] = (t.statuses[f.status] ?? 0) + 1;
          if (f.status === 'STALE' && stale.length < 5) stale.push(`${domain}: ${f.reason}`);
        }
      } else if (r) refused.push(`read ${String(r.errors?.[0]?.extensions?.code ?? r.status)}`);
      await sleep(100);
    }
  };
  const reader = read();

  return {
    ...t,
    stale,
    refused,
    dropped: () => dropped,
    async stop() {
      stopped = true;
      await loop.stop();
      await reader;
    },
  };
}
