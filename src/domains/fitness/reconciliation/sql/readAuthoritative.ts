// SQL: the authoritative latest state of fitness results on one shard (live rows and the deletion
// log), for replays, tombstones and rebuilds: a scope, optionally only some ids.
//
// Locking: both tables are read inside one REPEATABLE READ transaction that only reads, so the live rows
// and the deletion log come from the same snapshot (a result deleted in between is seen exactly
// once). Nothing is locked: the snapshot is InnoDB's MVCC view, writers are never blocked.
import type { Knex } from 'knex';
import { DELETIONS, RESULTS, stateOf, type ResultRow } from '../../store/rows';
import type { FitnessResultState } from '../../types';
import type { CampaignScope } from '../campaignScope';

export async function readShardStates(db: Knex, scope: CampaignScope, ids?: string[]): Promise<FitnessResultState[]> {
  const numericIds = ids?.filter((i) => /^[1-9][0-9]{0,15}$/.test(i)).map(Number);
  if (numericIds && numericIds.length === 0) return [];
  return db.transaction(
    async (trx) => {
      const where = (q: Knex.QueryBuilder) => {
        q.where('detect_id', scope.detectId);
        if (scope.projectId) q.andWhere('project_id', scope.projectId);
        if (numericIds) q.whereIn('data_id', numericIds);
        return q;
      };
      const live = (await where(trx(RESULTS).select('*'))) as ResultRow[];
      const deleted = (await where(trx(DELETIONS).select('*'))) as ResultRow[];
      return [...live.map((r) => stateOf(r)), ...deleted.map((r) => stateOf(r, true))];
    },
    { isolationLevel: 'repeatable read' },
  );
}
