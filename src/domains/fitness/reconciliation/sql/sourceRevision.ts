// SQL: the revision of a fitness scope on one shard (aggregates, live ones, sum of versions, newest
// commit time), over the live rows and the deletion log.
//
// Locking: a plain non-locking read (InnoDB consistent read of one statement); it blocks no writer.
// The engine reads it before and after each scan: every commit in scope raises the sum of versions
// (a new result adds 1, a correction or deletion adds 1), so equal revisions mean the scope did not
// change in between, without holding a snapshot open across shards.
import type { Knex } from 'knex';
import type { SourceRevision } from '../../../contract/sourceState';
import type { CampaignScope } from '../campaignScope';
import { scopeRows } from './scopeRows';

export async function shardRevision(db: Knex, scope: CampaignScope): Promise<SourceRevision> {
  const r = scopeRows(scope);
  const [rows] = (await db.raw(
    `SELECT COUNT(*) AS n, COALESCE(SUM(1 - r.is_deleted), 0) AS live, COALESCE(SUM(r.version), 0) AS vsum, MAX(r.updated_at) AS max_commit FROM ${r.sql}`,
    r.bindings,
  )) as [{ n: number | string; live: number | string; vsum: number | string; max_commit: Date | null }[]];
  const row = rows[0]!;
  return {
    aggregates: Number(row.n),
    live: Number(row.live),
    versionSum: Number(row.vsum),
    maxCommitMs: row.max_commit ? new Date(row.max_commit).getTime() : 0,
  };
}
