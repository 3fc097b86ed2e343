// The authoritative fitness rows of a scope on one shard, as one derived table `r`: the live rows
// (is_deleted 0) and the deletion log (is_deleted 1, the tombstone version). An aggregate is in
// exactly one of the two (deleteResult moves it in one transaction). Values are bound (`?`), never
// concatenated; the canonical line is generated from the agreed field list (its table spec: src/domains/contract/canonicalFields.ts).
import type { FieldSpec } from '../../../contract/canonical';
import { canonicalFieldsOf, type CompareLevel } from '../../../contract/canonicalFields';
import { FITNESS_RESULTS } from '../../projection/fitnessResultsTable';
import { lineSql, mysqlCells } from '../../../contract/sqlCells';
import type { StateFilter } from '../../../contract/sourceReader';
import type { CampaignScope } from '../campaignScope';

export interface Sql {
  sql: string;
  bindings: (string | number)[];
}

const COLUMNS = 'data_id, detect_id, user_id, project_id, school_id, grade, result, unit, version, created_at, updated_at';

const COLUMN_OF: Record<string, string> = {
  dataId: 'r.data_id',
  version: 'r.version',
  isDeleted: 'r.is_deleted',
  detectId: 'r.detect_id',
  userId: 'r.user_id',
  projectId: 'r.project_id',
  schoolId: 'r.school_id',
  grade: 'r.grade',
  result: 'r.result',
  unit: 'r.unit',
  createdAt: 'r.created_at',
  updatedAt: 'r.updated_at',
};

function columnOf(f: FieldSpec): string {
  const c = COLUMN_OF[f.name];
  if (!c) throw new TypeError(`no fitness source column for ${f.name}`);
  return c;
}

/** The canonical line of `r` at a level (MySQL). */
export function fitnessLineSql(level: CompareLevel): string {
  return lineSql(mysqlCells, canonicalFieldsOf(FITNESS_RESULTS, level), columnOf);
}

export const BUCKET_OF_R = (buckets: number) => mysqlCells.bucket('CAST(r.data_id AS CHAR)', buckets);

function scopeWhere(scope: CampaignScope): Sql {
  return scope.projectId
    ? { sql: 'detect_id = ? AND project_id = ?', bindings: [scope.detectId, scope.projectId] }
    : { sql: 'detect_id = ?', bindings: [scope.detectId] };
}

function filterWhere(filter: StateFilter): Sql {
  const parts: string[] = [];
  const bindings: (string | number)[] = [];
  if (filter.ids) {
    const ids = filter.ids.filter((i) => /^[1-9][0-9]{0,15}$/.test(i));
    parts.push(ids.length ? `data_id IN (${ids.map(() => '?').join(', ')})` : '1 = 0');
    bindings.push(...ids.map(Number));
  }
  if (filter.buckets) {
    const b = filter.buckets;
    parts.push(b.ids.length ? `${mysqlCells.bucket('CAST(data_id AS CHAR)', b.count)} IN (${b.ids.map(() => '?').join(', ')})` : '1 = 0');
    bindings.push(...b.ids);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), bindings };
}

/** `( live UNION ALL deletions ) r` restricted to the scope (and the filter). */
export function scopeRows(scope: CampaignScope, filter: StateFilter = {}): Sql {
  const w = scopeWhere(scope);
  const f = filterWhere(filter);
  return {
    sql: `(SELECT ${COLUMNS}, 0 AS is_deleted FROM fitness_results WHERE ${w.sql}${f.sql}
      UNION ALL
      SELECT ${COLUMNS}, 1 AS is_deleted FROM fitness_result_deletions WHERE ${w.sql}${f.sql}) r`,
    bindings: [...w.bindings, ...f.bindings, ...w.bindings, ...f.bindings],
  };
}

/** The data ids (as text) of a scope on one shard, for joins against publication tables. */
export function scopeIds(scope: CampaignScope): Sql {
  const w = scopeWhere(scope);
  return {
    sql: `SELECT CAST(data_id AS CHAR) FROM fitness_results WHERE ${w.sql}
      UNION ALL SELECT CAST(data_id AS CHAR) FROM fitness_result_deletions WHERE ${w.sql}`,
    bindings: [...w.bindings, ...w.bindings],
  };
}
