// The audit row of an operator's rebuild: a REBUILD repair without a discrepancy, SENT and PENDING
// until the rebuild's verdict settles it (settleRebuildRepairs, or verifyRepairs once it ended).
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock';
import type { RepairRecord } from '../ledger/records';
import { insertRepairs } from '../ledger/sql/repairRows';
import { scopeJson, scopeKey, type Scope } from '../scope';

export async function insertRebuildAudit(
  d: { ledger: Knex; clock: Clock },
  scope: Scope,
  requestedBy: string,
  reason: string,
  rebuildId: number,
): Promise<RepairRecord> {
  const [audit] = await insertRepairs(
    d.ledger,
    [
      {
        discrepancyId: null,
        domain: scope.domain,
        scopeKey: scopeKey(scope),
        scope: scopeJson(scope),
        action: 'REBUILD',
        reason: `operator: ${reason}`,
        aggregateId: null,
        sourceVersion: null,
        targetVersion: null,
        eventId: null,
        rebuildId,
        requestedBy,
        outcome: 'SENT',
        outcomeNote: `rebuild ${rebuildId} started`,
        verification: 'PENDING',
      },
    ],
    d.clock.now(),
  );
  return audit!;
}
