// The product's own reconciliation, asked through GraphQL as an operator would: the fitness campaign
// the workload writes to and the order time window of the run, at the CONTENT level (counts, ids and
// versions, canonical content digests). CATCHING_UP and SCOPE_CHANGED are normal delay by design, so
// they are asked again, and so is a CLEAN run that excluded aggregates (changed after its snapshot, in
// flight): after a fault the whole scope must be judged, not what had already arrived. The verdict is
// CLEAN (zero discrepancies, nothing excluded) or the discrepancies it stored.
import { waitFor } from '../../../src/shared/lifecycle';
import { FaultReconcileDocument, type FaultReconcileMutation, type ReconciliationScopeInput } from '../../generated/graphql';
import { call } from '../../support/timedClient';
import type { ProductReconciliation } from './verify';

type Run = FaultReconcileMutation['reconcile'];

export function productReconciliation(o: {
  url: string;
  headers: Record<string, string>;
  detectId: number;
  from: Date;
}): ProductReconciliation {
  async function settled(scope: ReconciliationScopeInput): Promise<Run> {
    let last: Run | undefined;
    await waitFor(
      async () => {
        const a = await call(o.url, FaultReconcileDocument, { scope, level: 'CONTENT' }, o.headers, 60000);
        if (a.kind !== 'data') throw new Error(`reconcile answered ${a.kind} ${a.code ?? ''} ${a.message ?? ''}`);
        last = a.data!.reconcile;
        const whole = last.run.excludedChangedAfterSnapshot + last.run.excludedInFlight === 0;
        return (last.run.outcome === 'CLEAN' && whole) || last.run.outcome === 'DISCREPANCIES' || last.run.outcome === 'FAILED';
      },
      { timeoutMs: 60000, intervalMs: 1000, what: 'a settled reconciliation' },
    ).catch(() => undefined);
    if (!last) throw new Error('reconcile never answered');
    return last;
  }

  return {
    async run() {
      const orderWindow = { from: o.from.toISOString(), to: new Date(Date.now() + 60000).toISOString() };
      const runs = [await settled({ campaign: { detectId: o.detectId } }), await settled({ orderWindow })];
      return {
        clean: runs.every((r) => r.run.outcome === 'CLEAN' && r.run.excludedChangedAfterSnapshot + r.run.excludedInFlight === 0),
        discrepancies: runs.reduce((n, r) => n + r.run.discrepanciesFound, 0),
        detail: runs.map((r) => ({ ...r.run, discrepancies: r.discrepancies.slice(0, 5) })),
      };
    },
  };
}
