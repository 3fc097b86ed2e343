// How each domain's ClickHouse projection table maps to the canonical fields, and how a scope becomes
// a WHERE clause there. Values reach SQL only through infra/clickhouse/literal.ts (18.16 has no
// server-side parameters). Times come from the exact *_ms columns, never the second-precision ones.
import { list, str, uint } from '../../infra/clickhouse/literal';
import type { Domain } from '../../publication/event';
import type { FieldSpec } from '../canonical/canonical';
import { ORDER_ITEM_FIELDS, fieldsOf, type CompareLevel } from '../canonical/fields';
import { clickhouseCells, lineSql } from '../../domains/contract/sqlCells';
import type { StateFilter } from '../../domains/contract/sourceReader';
import type { Scope } from '../scope';

export interface ProjectionMapping {
  domain: Domain;
  table: string;
  /** The aggregate id column (ORDER BY key of the table). */
  idColumn: string;
  /** The id as text (what bucket() hashes). */
  idText: string;
  /** Logical-count segment of a row (fitness: project, orders: UTC day). */
  segment: string;
  scopeWhere(scope: Scope): string;
  idsWhere(ids: string[]): string;
  line(level: CompareLevel): string;
}

const FITNESS_COLUMNS: Record<string, string> = {
  dataId: 'data_id',
  version: 'version',
  isDeleted: 'is_deleted',
  detectId: 'detect_id',
  userId: 'user_id',
  projectId: 'project_id',
  schoolId: 'school_id',
  grade: 'grade',
  result: 'result',
  unit: 'unit',
  createdAt: 'created_at_ms',
  updatedAt: 'source_commit_ms',
};

function columnFrom(map: Record<string, string>, domain: string) {
  return (f: FieldSpec): string => {
    const c = map[f.name];
    if (!c) throw new TypeError(`no ${domain} projection column for ${f.name}`);
    return c;
  };
}

export const fitnessProjection: ProjectionMapping = {
  domain: 'fitness',
  table: 'fitness_results',
  idColumn: 'data_id',
  idText: 'toString(data_id)',
  segment: 'toString(project_id)',
  scopeWhere(scope) {
    if (scope.domain !== 'fitness') throw new TypeError('not a fitness scope');
    return `detect_id = ${uint(scope.detectId)}${scope.projectId ? ` AND project_id = ${uint(scope.projectId)}` : ''}`;
  },
  idsWhere(ids) {
    const valid = ids.filter((i) => /^[1-9][0-9]{0,19}$/.test(i));
    return valid.length ? `data_id IN ${list(valid, uint)}` : '0';
  },
  line: (level) => lineSql(clickhouseCells, fieldsOf('fitness', level), columnFrom(FITNESS_COLUMNS, 'fitness')),
};

const ORDER_COLUMNS: Record<string, string> = {
  orderId: 'order_id',
  version: 'version',
  isDeleted: 'is_deleted',
  customerId: 'customer_id',
  currency: 'currency',
  total: 'total',
  itemCount: 'item_count',
  createdAt: 'created_at_ms',
};

function orderItemsSql(): string {
  const param: Record<string, string> = { sku: 's', quantity: 'q', unitPrice: 'p' };
  const cells = ORDER_ITEM_FIELDS.map((f) => clickhouseCells.cell(f.type, param[f.name]!));
  return `arrayStringConcat(arrayMap((s, q, p) -> concat(${cells.join(", '\\x1d', ")}), item_skus, item_quantities, item_unit_prices), '\\x1e')`;
}

export const ordersProjection: ProjectionMapping = {
  domain: 'orders',
  table: 'orders',
  idColumn: 'order_id',
  idText: 'order_id',
  segment: 'toString(toDate(created_at))',
  scopeWhere(scope) {
    if (scope.domain !== 'orders') throw new TypeError('not an order window');
    return `created_at_ms >= ${uint(scope.from.getTime())} AND created_at_ms < ${uint(scope.to.getTime())}`;
  },
  idsWhere(ids) {
    return ids.length ? `order_id IN ${list(ids.slice(0, 100000), str)}` : '0';
  },
  line: (level) =>
    lineSql(clickhouseCells, fieldsOf('orders', level), (f) =>
      f.name === 'items' ? orderItemsSql() : columnFrom(ORDER_COLUMNS, 'orders')(f),
    ),
};

export const PROJECTIONS: Record<Domain, ProjectionMapping> = { fitness: fitnessProjection, orders: ordersProjection };

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
