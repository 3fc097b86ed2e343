// SQL: bucketed canonical digests of a scope in a projection table, over the latest-version rows.
// DISTINCT (id, digest) collapses identical re-deliveries of one version (harmless duplicates) but
// keeps equal-version rows with different content, which then make their bucket differ from the
// source (one more record, another XOR term).
//
// No locking in ClickHouse. The digests are computed by ClickHouse; one row per bucket is returned.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident } from '../../../infra/clickhouse/literal';
import { uint64Of, type BucketDigest } from '../../../domains/contract/canonical';
import type { CompareLevel } from '../../../domains/contract/canonicalFields';
import { clickhouseCells } from '../../../domains/contract/sqlCells';
import type { Scope } from '../../scope';
import { whereOf, type ProjectionMapping } from '../projectionMapping';
import { latestRowsWhere } from './latestRows';

export async function targetBuckets(
  ch: ClickHouseClient,
  database: string,
  table: string,
  m: ProjectionMapping,
  scope: Scope,
  level: CompareLevel,
  bucketCount: number,
): Promise<BucketDigest[]> {
  const where = latestRowsWhere(m, database, table, whereOf(m, scope));
  const hash = clickhouseCells.hash64(clickhouseCells.digest(m.line(level)));
  const rs = await ch.query({
    query: `SELECT bucket, count() AS n, ${clickhouseCells.xorAgg('h')} AS x FROM (
        SELECT DISTINCT ${m.idColumn}, ${clickhouseCells.bucket(m.idText, bucketCount)} AS bucket, ${hash} AS h
        FROM ${ident(database)}.${ident(table)} WHERE ${where}
      ) GROUP BY bucket`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ bucket: number | string; n: number | string; x: string | number }>();
  return rows.map((r) => ({ bucket: Number(r.bucket), count: Number(r.n), xor: uint64Of(r.x) }));
}
