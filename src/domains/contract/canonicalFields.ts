// What each reconciliation level compares of a table: the ordered field lists of the canonical line,
// derived from a domain's projection table spec (src/domains/<domain>/projection/: which columns
// are compared, their types and decimal scales). Every engine's SQL and the TypeScript side are
// generated from these lists, so a field added to a spec is compared everywhere at once. Field names
// are the agreed event contract's (data.*).
//   IDS      identity, version and deletion state: finds missing, stale, undeleted and unexpected rows
//   CONTENT  everything a report depends on: also finds equal-version field errors (a wrong schoolId)
import { comparedFields, ProjectionSpecError } from './projectionColumns';
import type { ProjectionColumn, ProjectionTable } from './projectionTable';
import type { FieldKind, FieldSpec } from './canonical';

export type CompareLevel = 'IDS' | 'CONTENT';

/** The canonical kind of a column: its role decides bool and timestamp, its ClickHouse type the rest. */
function kindOf(table: string, c: ProjectionColumn<never>): FieldKind {
  if (c.role === 'isDeleted') return { kind: 'bool' };
  const type = c.type.kind === 'array' ? c.type.of : c.type;
  if (c.role === 'time' && type.kind === 'uint') return { kind: 'timestamp' };
  if (type.kind === 'uint') return { kind: 'int' };
  if (type.kind === 'string') return { kind: 'text' };
  if (type.kind === 'decimal') return { kind: 'decimal', scale: type.scale };
  throw new ProjectionSpecError(`${table}.${c.name} cannot be compared`);
}

/** The canonical fields of a table at a level, in canonical-line order. */
export function canonicalFieldsOf<Row>(t: ProjectionTable<Row>, level: CompareLevel): FieldSpec[] {
  const table = t as ProjectionTable<never>;
  return comparedFields(table, level).map((f) =>
    'column' in f
      ? { name: f.field, type: kindOf(t.name, f.column) }
      : { name: f.field, type: { kind: 'list', item: f.items.map((c) => ({ name: c.field ?? c.name, type: kindOf(t.name, c) })) } },
  );
}

/** The item fields of a list of a table (e.g. the orders' line items, which PostgreSQL builds from these). */
export function listItems<Row>(t: ProjectionTable<Row>, list: string): readonly FieldSpec[] {
  const f = canonicalFieldsOf(t, 'CONTENT').find((x) => x.name === list);
  if (f?.type.kind !== 'list') throw new ProjectionSpecError(`${t.name} has no list ${list}`);
  return f.type.item;
}
