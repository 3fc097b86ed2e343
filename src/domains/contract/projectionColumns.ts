// Pure derivations from a projection table's spec (projectionTable.ts): the one place that reads a
// spec's roles, so every consumer (insert line, latest-state select, read view, reconciliation
// mapping and canonical fields, rebuild) agrees on which column is what.
import type { ColumnRole, ProjectionColumn, ProjectionTable } from './projectionTable';

export class ProjectionSpecError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectionSpecError';
  }
}

/** The one column of a role that has exactly one (key, version, isDeleted). */
export function columnWithRole<Row>(
  t: ProjectionTable<Row>,
  role: Extract<ColumnRole, 'key' | 'version' | 'isDeleted'>,
): ProjectionColumn<Row> {
  const found = t.columns.filter((c) => c.role === role);
  if (found.length !== 1) throw new ProjectionSpecError(`${t.name} must have exactly one ${role} column`);
  return found[0]!;
}

/** The column holding a field (for a list, the item's field), by the event contract's name. */
export function columnOfField<Row>(t: ProjectionTable<Row>, field: string): ProjectionColumn<Row> {
  const c = t.columns.find((x) => x.field === field);
  if (!c) throw new ProjectionSpecError(`${t.name} has no column for ${field}`);
  return c;
}

/** The decimal scale of the column holding `field` (a Decimal or an Array of Decimal). */
export function decimalScale<Row>(t: ProjectionTable<Row>, field: string): number {
  let type = columnOfField(t, field).type;
  while (type.kind === 'array') type = type.of;
  if (type.kind !== 'decimal') throw new ProjectionSpecError(`${t.name}.${field} is not a decimal`);
  return type.scale;
}

/**
 * The columns the latest-state select reads back: all but provenance and the second-precision
 * DateTime twins (the exact *_ms columns carry those times).
 */
export function latestColumns<Row>(t: ProjectionTable<Row>): ProjectionColumn<Row>[] {
  return t.columns.filter((c) => c.role !== 'provenance' && c.type.kind !== 'dateTime');
}

/** One compared field: a column, or a list made of parallel array columns (its items' fields in order). */
export type ComparedField<Row> = { field: string; column: ProjectionColumn<Row> } | { field: string; items: ProjectionColumn<Row>[] };

/**
 * What a reconciliation compares, in canonical-line order: identity, version and deletion state
 * (IDS), then (CONTENT) every compared column in table order, a list at its first column.
 */
export function comparedFields<Row>(t: ProjectionTable<Row>, level: 'IDS' | 'CONTENT'): ComparedField<Row>[] {
  const ids = (['key', 'version', 'isDeleted'] as const).map((role) => {
    const column = columnWithRole(t, role);
    return { field: fieldOf(t, column), column };
  });
  if (level === 'IDS') return ids;
  const out: ComparedField<Row>[] = [...ids];
  for (const c of t.columns) {
    if (!c.compared || c.role === 'key' || c.role === 'version' || c.role === 'isDeleted') continue;
    if (c.list === undefined) out.push({ field: fieldOf(t, c), column: c });
    else if (!out.some((f) => f.field === c.list)) out.push({ field: c.list, items: t.columns.filter((x) => x.list === c.list) });
  }
  return out;
}

function fieldOf<Row>(t: ProjectionTable<Row>, c: ProjectionColumn<Row>): string {
  if (c.field === undefined) throw new ProjectionSpecError(`${t.name}.${c.name} has no field name`);
  return c.field;
}

const keyColumns = new WeakMap<object, ProjectionColumn<never>>();

/** The aggregate id of a row as text (what state changes and reconciliation name it by). */
export function aggregateIdOf<Row>(t: ProjectionTable<Row>, row: Row): string {
  let key = keyColumns.get(t) as ProjectionColumn<Row> | undefined;
  if (!key) keyColumns.set(t, (key = columnWithRole(t, 'key')) as ProjectionColumn<never>);
  return String(key.value(row));
}
