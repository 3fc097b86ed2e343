// SQL: bucketed canonical digests of an order window (count and XOR of the digests' first 64 bits per
// bucket; bit_xor over signed bigint gives the same bits as an unsigned XOR).
//
// Locking: a plain non-locking read (inside the run's snapshot, windowSnapshot.ts, when it has one); the
// digests are computed by PostgreSQL.
import type { Knex } from 'knex';
import { uint64Of, type BucketDigest } from '../../../contract/canonical';
import type { CompareLevel } from '../../../contract/canonicalFields';
import { postgresCells } from '../../../contract/sqlCells';
import type { OrderWindowScope } from '../windowScope';
import { BUCKET_OF_R, orderLineSql, scopeRows } from './scopeRows';

export async function ordersBuckets(db: Knex, scope: OrderWindowScope, level: CompareLevel, bucketCount: number): Promise<BucketDigest[]> {
  const r = scopeRows(scope);
  const hash = postgresCells.hash64(postgresCells.digest(orderLineSql(level)));
  const res = await db.raw<{ rows: { bucket: string; n: string; x: string | null }[] }>(
    `SELECT b.bucket, COUNT(*) AS n, ${postgresCells.xorAgg('b.h')} AS x
       FROM (SELECT ${BUCKET_OF_R(bucketCount)} AS bucket, ${hash} AS h FROM ${r.sql}) b
      GROUP BY b.bucket`,
    r.bindings,
  );
  return res.rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.n), xor: uint64Of(row.x) }));
}
