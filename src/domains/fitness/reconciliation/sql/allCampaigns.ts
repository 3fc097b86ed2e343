// SQL: every campaign (detectId) of one shard, live rows and deletion log, for the registry of scopes
// the rolling re-verification walks.
//
// Locking: a plain non-locking read. DISTINCT on the leading column of ix_fitness_results_campaign /
// ix_fitness_deletions_campaign (detect_id, project_id) is a loose index scan in MySQL and MariaDB
// ("Using index for group-by"): one index dive per campaign, not a read of every result.
import type { Knex } from 'knex';

export async function allCampaigns(db: Knex): Promise<number[]> {
  const [rows] = (await db.raw(
    `SELECT DISTINCT detect_id FROM fitness_results
     UNION
     SELECT DISTINCT detect_id FROM fitness_result_deletions`,
  )) as [{ detect_id: number }[]];
  return rows.map((r) => Number(r.detect_id));
}
