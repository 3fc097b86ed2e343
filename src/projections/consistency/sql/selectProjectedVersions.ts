// The newest version the projection holds of each named aggregate, deleted or not (a tombstone is a
// version too): one query per check, whatever the mix of domains, so a read with a consistency token
// costs at most two of these (the first check, and a last one if it timed out). Unscoped on purpose:
// it answers only "is version N of an aggregate this caller wrote projected", never a row. Each
// domain named in the writes adds one UNION ALL branch over its projection table (the domain's table
// spec names the table, its key and version columns); ids its key column cannot hold are left out (version 0).
import { columnWithRole } from '../../../domains/contract/projectionColumns';
import type { ColumnType } from '../../../domains/contract/projectionTable';
import { projectionOf } from '../../../domains/projections';
import { ident, list, str, uint } from '../../../infra/clickhouse/literal';
import type { Domain } from '../../../publication/event';
import type { ReadModelStore } from '../../read/readModelStore';
import type { WrittenVersion } from '../consistencyToken';

interface Row {
  d: string;
  id: string;
  v: number | string;
}

/** Decimal text an unsigned key of these bits holds (19 digits always fit 64 bits). */
const UINT_ID = /^[0-9]{1,19}$/;

/** Whether an id can be a value of the key column, and its literal; undefined: no row can have it. */
function keyLiteral(type: ColumnType, id: string): string | undefined {
  if (type.kind === 'string') return str(id);
  if (type.kind === 'uint') return UINT_ID.test(id) && BigInt(id) < 2n ** BigInt(type.bits) ? uint(id) : undefined;
  // The specs' key columns are UInt or String; another type matches no token's id.
  return undefined;
}

/** One domain's branch: its key column and newest version per named id. */
function branch(database: string, domain: Domain, ids: readonly string[]): string | undefined {
  const table = projectionOf(domain).table;
  const key = columnWithRole(table, 'key');
  const version = ident(columnWithRole(table, 'version').name);
  const literals = [...new Set(ids)].map((id) => keyLiteral(key.type, id)).filter((l): l is string => l !== undefined);
  if (literals.length === 0) return undefined;
  const k = ident(key.name);
  return (
    `SELECT ${str(domain)} AS d, toString(${k}) AS id, max(${version}) AS v FROM ${ident(database)}.${ident(table.name)} ` +
    `WHERE ${k} IN ${list(literals, (l) => l)} GROUP BY ${k}`
  );
}

/** Projected version per write, in the order given (0 when none is projected). */
export async function selectProjectedVersions(
  store: ReadModelStore,
  database: string,
  writes: readonly WrittenVersion[],
): Promise<number[]> {
  const byDomain = new Map<Domain, string[]>();
  for (const w of writes) byDomain.set(w.domain, [...(byDomain.get(w.domain) ?? []), w.aggregateId]);
  const parts = [...byDomain].map(([domain, ids]) => branch(database, domain, ids)).filter((p): p is string => p !== undefined);
  if (parts.length === 0) return writes.map(() => 0);
  const rows = await store.select<Row>('consistencyVersions', parts.join(' UNION ALL '));
  const found = new Map(rows.map((r) => [`${r.d}\u0000${r.id}`, Number(r.v)]));
  return writes.map((w) => found.get(`${w.domain}\u0000${w.aggregateId}`) ?? 0);
}
