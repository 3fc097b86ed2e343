// What the suite demands after every fault, measured rather than assumed:
//   recovery time   from the restore until every write acknowledged so far is visible in ClickHouse
//                   with (at least) its acknowledged version, while traffic keeps flowing;
//   convergence     with traffic paused and every unknown outcome resolved: the stores and ClickHouse
//                   agree on every aggregate by content (own oracle), nothing is still pending;
//   freshness       FRESH for both domains once converged;
//   reconciliation  the product's own reconciliation reports zero discrepancies;
//   no loss         every acknowledged write is in its store, the model equals the stores;
//   nothing stuck   no PARKED outbox row, no DEAD_LETTER publication.
import type { Resources } from '../../../src/app/resources';
import { waitFor } from '../../../src/shared/lifecycle';
import type { FreshnessProbe } from './freshnessProbe';
import { checkModel, compareStores, notYetVisible, publicationBacklog, type Difference, type PublicationBacklog } from './oracle';
import type { Workload } from './workload';

export interface ProductReconciliation {
  /** Runs the product's reconciliation over the suite's scopes; returns the discrepancies it reports. */
  run(): Promise<{ clean: boolean; discrepancies: number; detail: unknown }>;
}

export interface Verdict {
  convergedMs: number;
  differences: Difference[];
  freshnessAfter: Record<'fitness' | 'orders', string>;
  productClean: boolean;
  productDiscrepancies: number;
  productDetail: unknown;
  lost: string[];
  mismatched: string[];
  backlog: PublicationBacklog;
  fitnessRows: number;
  orderRows: number;
  physicalRows: number;
}

/** Milliseconds until every acknowledged write in `acked` shows in ClickHouse. */
export async function timeToVisible(r: Resources, acked: Workload['acknowledged'], since: number, timeoutMs: number): Promise<number> {
  await waitFor(async () => (await notYetVisible(r, acked)) === 0, {
    timeoutMs,
    intervalMs: 250,
    what: `${acked.length} acknowledged writes to be visible in ClickHouse`,
  });
  return Date.now() - since;
}

export async function verifyConverged(o: {
  resources: Resources;
  workload: Workload;
  probe: FreshnessProbe;
  reconciliation: ProductReconciliation;
  timeoutMs: number;
}): Promise<Verdict> {
  const started = Date.now();
  let last: Awaited<ReturnType<typeof compareStores>> | undefined;
  let backlog: PublicationBacklog = { pending: -1, parked: -1, deadLettered: -1 };
  try {
    await waitFor(
      async () => {
        [last, backlog] = await Promise.all([compareStores(o.resources), publicationBacklog(o.resources)]);
        return last.differences.length === 0 && backlog.pending === 0;
      },
      { timeoutMs: o.timeoutMs, intervalMs: 500, what: 'stores and ClickHouse to agree' },
    );
  } catch {
    // Reported below with the differences that remained.
  }
  const convergedMs = Date.now() - started;
  const freshnessAfter = { fitness: 'UNKNOWN', orders: 'UNKNOWN' };
  await waitFor(
    async () => {
      const s = await o.probe.once();
      for (const x of s) freshnessAfter[x.domain] = x.status;
      return s.every((x) => x.status === 'FRESH');
    },
    { timeoutMs: 30000, intervalMs: 500, what: 'freshness FRESH' },
  ).catch(() => undefined);
  const product = await o.reconciliation.run();
  const model = await checkModel(o.resources, o.workload);
  return {
    convergedMs,
    differences: last?.differences ?? [],
    freshnessAfter,
    productClean: product.clean,
    productDiscrepancies: product.discrepancies,
    productDetail: product.detail,
    lost: model.lost,
    mismatched: model.mismatched,
    backlog,
    fitnessRows: last?.fitnessRows ?? 0,
    orderRows: last?.orderRows ?? 0,
    physicalRows: last?.physicalRows ?? 0,
  };
}
