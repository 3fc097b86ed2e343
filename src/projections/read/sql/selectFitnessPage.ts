// One page of latest fitness results matching a filter, in data_id order, keyset-paginated: the
// cursor is the last data_id of the previous page, so pages stay stable while results are corrected
// (a correction keeps its data_id) and deleted results simply drop out. Fetches first + 1 rows to
// know whether another page follows. Filters are on immutable columns only (see latestFitness.ts).
import { uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../readModelStore';
import { toFitnessView, type FitnessView } from '../views';
import { latestFitnessSql, type LatestFitnessRow } from './latestFitness';

export interface FitnessFilter {
  detectId?: number;
  projectId?: number;
  schoolId?: number;
  grade?: number;
  userId?: number;
}

const COLUMNS: Record<keyof FitnessFilter, string> = {
  detectId: 'detect_id',
  projectId: 'project_id',
  schoolId: 'school_id',
  grade: 'grade',
  userId: 'user_id',
};

export function fitnessFilterSql(f: FitnessFilter): string[] {
  return (Object.keys(COLUMNS) as (keyof FitnessFilter)[])
    .filter((k) => f[k] !== undefined && f[k] !== null)
    .map((k) => `${COLUMNS[k]} = ${uint(f[k]!)}`);
}

export async function selectFitnessPage(
  store: ReadModelStore,
  database: string,
  filter: FitnessFilter,
  first: number,
  afterDataId?: number,
): Promise<{ nodes: FitnessView[]; hasNextPage: boolean }> {
  const where = fitnessFilterSql(filter);
  if (afterDataId !== undefined) where.push(`data_id > ${uint(afterDataId)}`);
  const rows = await store.select<LatestFitnessRow>(
    'fitnessPage',
    latestFitnessSql(database, where, `ORDER BY data_id LIMIT ${uint(first + 1)}`),
  );
  return { nodes: rows.slice(0, first).map(toFitnessView), hasNextPage: rows.length > first };
}
