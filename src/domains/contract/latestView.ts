// What a read model returns, for any domain (each domain's view type: src/domains/<d>/read/*View.ts):
// the latest non-deleted state of an aggregate, with the source commit time of that version
// (updatedAt) and when the projector ingested it. Decimals are canonical strings.
// A column whose empty value stands for "unknown" (emptyIsUnknown: the fields of a newer event schema
// version) reads back as null when empty. The mapping is derived from the table's spec: each column read back becomes its field (the key as
// text, times as Dates, decimals padded to the column's scale, other integers as numbers).
import { padDecimal } from '../../shared/decimal';
import { latestAlias } from './latestColumns';
import { latestColumns } from './projectionColumns';
import type { ColumnRole, ColumnType, ProjectionColumn, ProjectionTable } from './projectionTable';

/** A latest-state row as its view: every column read back, by its field name, in its JS type. */
export function viewOf<Row>(t: ProjectionTable<Row>, r: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  const lists = new Map<string, ProjectionColumn<Row>[]>();
  for (const c of latestColumns(t)) {
    if (c.role === 'isDeleted') continue;
    if (c.list !== undefined) lists.set(c.list, [...(lists.get(c.list) ?? []), c]);
    else view[c.field ?? c.name] = c.emptyIsUnknown && isEmpty(r[latestAlias(c)]) ? null : valueOf(c.type, c.role, r[latestAlias(c)]);
  }
  for (const [list, columns] of lists) {
    const arrays = columns.map((c) => r[latestAlias(c)] as unknown[]);
    view[list] = arrays[0]!.map((_, i) =>
      Object.fromEntries(
        columns.map((c, j) => [c.field ?? c.name, valueOf(c.type.kind === 'array' ? c.type.of : c.type, c.role, arrays[j]![i])]),
      ),
    );
  }
  return view;
}

/** 0 (ClickHouse returns UInt64 quoted: '0') or '' or nothing. */
function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === '0';
}

function valueOf(type: ColumnType, role: ColumnRole, v: unknown): unknown {
  if (role === 'key') return String(v);
  if (role === 'time') return new Date(Number(v));
  if (type.kind === 'decimal') return padDecimal(String(v ?? '0'), type.scale);
  if (type.kind === 'uint') return Number(v);
  return v;
}
