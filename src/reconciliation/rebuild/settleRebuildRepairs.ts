// When a rebuild ends, the repairs that asked for it get its verdict: VERIFIED passes them and
// resolves their discrepancies as REBUILT; anything else fails them and reopens the discrepancies.
// Idempotent (only PENDING repairs change), so the rebuild's own callback and the verifier may both
// call it.
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock';
import { reopenDiscrepancy, resolveDiscrepancy } from '../ledger/sql/discrepancyTransitions';
import { listRepairs } from '../ledger/sql/ledgerQueries';
import { recordVerification } from '../ledger/sql/repairRows';
import type { RebuildRecord } from '../ledger/records';
import type { ReconciliationMetrics } from '../metrics';

export async function settleRebuildRepairs(ledger: Knex, clock: Clock, metrics: ReconciliationMetrics, r: RebuildRecord): Promise<void> {
  const now = clock.now();
  const passed = r.status === 'VERIFIED';
  for (const repair of await listRepairs(ledger, { rebuildId: r.id, verifications: ['PENDING'], first: 100000 })) {
    await recordVerification(
      ledger,
      repair.id,
      passed ? 'PASSED' : 'FAILED',
      now,
      passed ? `rebuild ${r.id} verified by reconciliation` : `rebuild ${r.id} failed: ${r.errorCode ?? 'unknown'}`,
    );
    metrics.verifications.inc({ domain: r.domain, verdict: passed ? 'PASSED' : 'FAILED' });
    if (!repair.discrepancyId) continue;
    if (passed) await resolveDiscrepancy(ledger, repair.discrepancyId, 'REBUILT', now);
    else await reopenDiscrepancy(ledger, repair.discrepancyId);
  }
}
