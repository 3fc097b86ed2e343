// SQL: bucketed canonical digests of a fitness scope on one shard: per bucket, the number of
// aggregates and the XOR of their digests' first 64 bits (src/domains/contract/canonical.ts). Shards combine by
// XOR in TypeScript, so the result equals a digest over the whole campaign.
//
// Locking: a plain non-locking read over the scope's rows (index range on detect_id), inside the run's
// snapshot transaction when the run has one (shardSnapshot.ts); MD5 per row is
// computed by the shard, so only one row per bucket crosses the network.
import type { Knex } from 'knex';
import { uint64Of, type BucketDigest } from '../../../contract/canonical';
import type { CompareLevel } from '../../../contract/canonicalFields';
import { mysqlCells } from '../../../contract/sqlCells';
import type { CampaignScope } from '../campaignScope';
import { BUCKET_OF_R, fitnessLineSql, scopeRows } from './scopeRows';

export async function shardBuckets(db: Knex, scope: CampaignScope, level: CompareLevel, bucketCount: number): Promise<BucketDigest[]> {
  const r = scopeRows(scope);
  const hash = mysqlCells.hash64(mysqlCells.digest(fitnessLineSql(level)));
  const [rows] = (await db.raw(
    `SELECT b.bucket, COUNT(*) AS n, ${mysqlCells.xorAgg('b.h')} AS x
       FROM (SELECT ${BUCKET_OF_R(bucketCount)} AS bucket, ${hash} AS h FROM ${r.sql}) b
      GROUP BY b.bucket`,
    r.bindings,
  )) as [{ bucket: number | string; n: number | string; x: number | string }[]];
  return rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.n), xor: uint64Of(row.x) }));
}
