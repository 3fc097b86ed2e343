// SQL: record that a reconciliation run started (outcome NULL until it finishes).
//
// Locking: a plain INSERT of a new row; nothing else is touched. A run that dies midway stays with
// outcome NULL and is visible as such (finished_at NULL).
import type { Knex } from 'knex';
import type { ReconcileLevel, RunTrigger } from '../../model';
import { scopeJson, scopeKey, type Scope } from '../../scope';

export async function insertRun(
  db: Knex,
  scope: Scope,
  level: ReconcileLevel,
  trigger: RunTrigger,
  requestedBy: string,
  startedAt: Date,
): Promise<number> {
  const [row] = (await db('reconciliation_runs')
    .insert({
      domain: scope.domain,
      scope_key: scopeKey(scope),
      scope: JSON.stringify(scopeJson(scope)),
      level_requested: level,
      trigger,
      requested_by: requestedBy.slice(0, 128),
      started_at: startedAt,
    })
    .returning('id')) as { id: string | number }[];
  return Number(row!.id);
}
