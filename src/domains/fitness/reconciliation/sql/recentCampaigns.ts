// SQL: campaigns (detectIds) of one shard that changed since `since` (and before `until`, when
// given), with their last change time (live rows and the deletion log). The scheduler reconciles
// those whose last change, over all shards, is older than the quiet period: a campaign that stopped
// changing is "completed". With `until`, the campaigns holding a row whose latest change lies in a
// window (the window of expired Kafka messages: those rows' latest events may be lost).
//
// Locking: a plain non-locking read. updated_at is not indexed on the live table (the write path
// does not need it), so this scans the shard's results; it runs once per scheduler pass, in one
// reconciler process (the pass holds a lease), and blocks no writer.
import type { Knex } from 'knex';

export async function recentCampaigns(db: Knex, since: Date, until = new Date('9999-12-31T00:00:00Z')): Promise<Map<number, number>> {
  const [rows] = (await db.raw(
    `SELECT x.detect_id, MAX(x.updated_at) AS last_change FROM (
       SELECT detect_id, updated_at FROM fitness_results WHERE updated_at >= ? AND updated_at <= ?
       UNION ALL
       SELECT detect_id, deleted_at AS updated_at FROM fitness_result_deletions WHERE deleted_at >= ? AND deleted_at <= ?
     ) x GROUP BY x.detect_id`,
    [since, until, since, until],
  )) as [{ detect_id: number; last_change: Date }[]];
  return new Map(rows.map((r) => [Number(r.detect_id), new Date(r.last_change).getTime()]));
}
