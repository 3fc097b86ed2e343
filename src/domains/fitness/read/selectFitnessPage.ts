// One page of latest fitness results matching a filter and the caller's scope, in data_id order,
// keyset-paginated: the cursor is the last data_id of the previous page, so pages stay stable while
// results are corrected (a correction keeps its data_id) and deleted results simply drop out. Fetches
// first + 1 rows to know whether another page follows. Filters on immutable columns run before the
// grouping (see latestFitness.ts); schoolId may change across versions, so it is a condition on the
// latest version (HAVING), with the "ever at this school" pre-filter of fitnessScopeSql.ts in WHERE.
import type { FitnessScope } from '../policy';
import { uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { toFitnessView, type FitnessView } from './fitnessView';
import { latestFitnessSql, type LatestConditions, type LatestFitnessRow } from './latestFitness';
import { fitnessScopeSql } from './fitnessScopeSql';

export interface FitnessFilter {
  detectId?: number;
  projectId?: number;
  schoolId?: number;
  grade?: number;
  userId?: number;
}

const IMMUTABLE: Record<Exclude<keyof FitnessFilter, 'schoolId'>, string> = {
  detectId: 'detect_id',
  projectId: 'project_id',
  grade: 'grade',
  userId: 'user_id',
};

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

export function fitnessFilterSql(database: string, f: FitnessFilter): Required<Pick<LatestConditions, 'where' | 'having'>> {
  const where = (Object.keys(IMMUTABLE) as (keyof typeof IMMUTABLE)[])
    .filter((k) => given(f[k]))
    .map((k) => `${IMMUTABLE[k]} = ${uint(f[k]!)}`);
  if (!given(f.schoolId)) return { where, having: [] };
  // The same latest-version school condition as a teacher's scope of one school.
  const school = fitnessScopeSql(database, { all: false, schoolIds: [f.schoolId], userIds: [] }, where);
  return { where: [...where, ...school.where], having: school.having };
}

export async function selectFitnessPage(
  store: ReadModelStore,
  database: string,
  scope: FitnessScope,
  filter: FitnessFilter,
  first: number,
  afterDataId?: number,
): Promise<{ nodes: FitnessView[]; hasNextPage: boolean }> {
  const f = fitnessFilterSql(database, filter);
  const s = fitnessScopeSql(database, scope, f.where);
  const where = [...f.where, ...s.where];
  if (afterDataId !== undefined) where.push(`data_id > ${uint(afterDataId)}`);
  const rows = await store.select<LatestFitnessRow>(
    'fitnessPage',
    latestFitnessSql(database, { where, having: [...f.having, ...s.having], tail: `ORDER BY data_id LIMIT ${uint(first + 1)}` }),
  );
  return { nodes: rows.slice(0, first).map(toFitnessView), hasNextPage: rows.length > first };
}
