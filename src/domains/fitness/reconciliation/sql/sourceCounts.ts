// SQL: logical counts of a fitness scope on one shard: live (not deleted) results per project.
//
// Locking: a plain non-locking read; served by ix_fitness_results_campaign (detect_id, project_id)
// without touching the rows. The deletion log is not counted: deleted results are not in reports.
import type { Knex } from 'knex';
import type { CampaignScope } from '../campaignScope';

export async function shardCounts(db: Knex, scope: CampaignScope): Promise<Map<string, number>> {
  const q = db('fitness_results').where('detect_id', scope.detectId);
  if (scope.projectId) q.andWhere('project_id', scope.projectId);
  const rows = (await q.select('project_id').count({ n: '*' }).groupBy('project_id')) as { project_id: number; n: number | string }[];
  return new Map(rows.map((r) => [String(r.project_id), Number(r.n)]));
}
