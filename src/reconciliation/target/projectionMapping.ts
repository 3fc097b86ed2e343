// How each domain's ClickHouse projection table maps to the canonical fields, and how a scope becomes
// a WHERE clause there. The columns, their canonical fields and the aggregate key come from the
// domain's table spec (src/domains/<domain>/projection/), the scope condition from its reconciliation
// part (targetWhere).
// Values reach SQL only through infra/clickhouse/literal.ts (18.16 has no server-side parameters).
// Times come from the exact *_ms columns, never the second-precision ones.
import { columnWithRole, comparedFields } from '../../domains/contract/projectionColumns';
import type { ProjectionTable } from '../../domains/contract/projectionTable';
import { domainModule } from '../../domains/registry';
import { list, str, uint } from '../../infra/clickhouse/literal';
import type { Domain } from '../../publication/event';
import { canonicalFieldsOf, type CompareLevel } from '../../domains/contract/canonicalFields';
import { clickhouseCells, lineSql } from '../../domains/contract/sqlCells';
import type { StateFilter } from '../../domains/contract/sourceReader';
import type { Scope } from '../scope';

export interface ProjectionMapping {
  domain: Domain;
  table: string;
  /** The aggregate id column (ORDER BY key of the table). */
  idColumn: string;
  /** The version column (ReplacingMergeTree's). */
  versionColumn: string;
  /** The id as text (what bucket() hashes). */
  idText: string;
  /** An aggregate id as a SQL literal of the id column's type. */
  idLiteral(id: string): string;
  /** Logical-count segment of a row (fitness: project, orders: UTC day). */
  segment: string;
  scopeWhere(scope: Scope): string;
  idsWhere(ids: string[]): string;
  line(level: CompareLevel): string;
}

/** The SQL of each canonical field at a level: its column, or a list's items joined from parallel arrays. */
function fieldSql<Row>(t: ProjectionTable<Row>, level: CompareLevel): Map<string, string> {
  const sql = new Map<string, string>();
  for (const f of comparedFields(t, level)) {
    if ('column' in f) sql.set(f.field, f.column.name);
    else {
      const params = f.items.map((_, i) => `p${i}`);
      const item = canonicalFieldsOf(t, level).find((x) => x.name === f.field)!;
      if (item.type.kind !== 'list') continue;
      const cells = item.type.item.map((x, i) => clickhouseCells.cell(x.type, params[i]!));
      const arrays = f.items.map((c) => c.name).join(', ');
      sql.set(f.field, `arrayStringConcat(arrayMap((${params.join(', ')}) -> concat(${cells.join(", '\\x1d', ")}), ${arrays}), '\\x1e')`);
    }
  }
  return sql;
}

/** The generic part of a mapping (columns, key, line); the scope condition is the domain's. */
function mappingOf<Row>(domain: Domain, t: ProjectionTable<Row>, scopeWhere: (scope: Scope) => string): ProjectionMapping {
  const key = columnWithRole(t, 'key');
  const numericKey = key.type.kind === 'uint';
  const lines = { IDS: fieldSql(t, 'IDS'), CONTENT: fieldSql(t, 'CONTENT') };
  return {
    domain,
    table: t.name,
    idColumn: key.name,
    versionColumn: columnWithRole(t, 'version').name,
    idText: numericKey ? `toString(${key.name})` : key.name,
    idLiteral: numericKey ? uint : str,
    segment: t.segment,
    scopeWhere,
    idsWhere(ids) {
      if (!numericKey) return ids.length ? `${key.name} IN ${list(ids.slice(0, 100000), str)}` : '0';
      const valid = ids.filter((i) => /^[1-9][0-9]{0,19}$/.test(i));
      return valid.length ? `${key.name} IN ${list(valid, uint)}` : '0';
    },
    line: (level) =>
      lineSql(clickhouseCells, canonicalFieldsOf(t, level), (f) => {
        const c = lines[level].get(f.name);
        if (!c) throw new TypeError(`no ${domain} projection column for ${f.name}`);
        return c;
      }),
  };
}

const mappings = new Map<Domain, ProjectionMapping>();

/** The mapping of a registered domain's projection table (derived once, on first use). */
export function projectionMappingOf(domain: Domain): ProjectionMapping {
  let m = mappings.get(domain);
  if (!m) {
    const { projection, reconciliation } = domainModule(domain);
    m = mappingOf(domain, projection.table, (scope) => reconciliation.targetWhere(scope));
    mappings.set(domain, m);
  }
  return m;
}

/** scope AND filter, for a WHERE clause. */
export function whereOf(m: ProjectionMapping, scope: Scope, filter: StateFilter = {}): string {
  const parts = [m.scopeWhere(scope)];
  if (filter.ids) parts.push(m.idsWhere(filter.ids));
  if (filter.buckets) {
    const b = filter.buckets;
    parts.push(b.ids.length ? `${clickhouseCells.bucket(m.idText, b.count)} IN ${list(b.ids, uint)}` : '0');
  }
  return parts.map((p) => `(${p})`).join(' AND ');
}
