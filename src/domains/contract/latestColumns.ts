// The select list of a latest-state query, derived from the table's spec: the key as is, max(version),
// and argMax(column, version) of every other column read back (latestColumns: no provenance, no
// second-precision twins). Decimals come back as text (toString) so no digit goes through a float.
// Aliases are prefixed (l_) so none shadows a column used inside an aggregate (ClickHouse would
// resolve `version` to the alias).
import { latestColumns } from './projectionColumns';
import type { ColumnType, ProjectionColumn, ProjectionTable } from './projectionTable';

/** The alias a latest-state query gives a column (the key keeps its name: it is grouped by). */
export function latestAlias(c: Pick<ProjectionColumn<never>, 'name' | 'role'>): string {
  return c.role === 'key' ? c.name : `l_${c.name}`;
}

function latestValue(c: ProjectionColumn<never>): string {
  if (c.role === 'version') return `max(${c.name})`;
  const latest = `argMax(${c.name}, version)`;
  const t: ColumnType = c.type;
  if (t.kind === 'decimal') return `toString(${latest})`;
  if (t.kind === 'array' && t.of.kind === 'decimal') return `arrayMap(p -> toString(p), ${latest})`;
  return latest;
}

/** "data_id, argMax(detect_id, version) AS l_detect_id, ..., max(version) AS l_version, ...". */
export function latestSelectList<Row>(t: ProjectionTable<Row>): string {
  return latestColumns(t as ProjectionTable<never>)
    .map((c) => (c.role === 'key' ? `\n  ${c.name}` : `\n  ${latestValue(c)} AS ${latestAlias(c)}`))
    .join(',');
}
