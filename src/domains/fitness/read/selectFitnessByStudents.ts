// Latest results of several students in several campaigns at once: the batch behind the
// `studentResults` field, so a page of N results asks ClickHouse once for all N students instead of
// N times. (detect_id, user_id) never change across versions, so the tuple filter runs before the
// latest-version grouping; the caller's scope applies as everywhere (a teacher sees a student's
// results at its schools only). Tuples are built with the literal formatter.
import type { FitnessScope } from '../policy';
import { uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { toFitnessView, type FitnessView } from './fitnessView';
import { latestFitnessSql, type LatestFitnessRow } from './latestFitness';
import { fitnessScopeSql } from './fitnessScopeSql';

export interface StudentKey {
  detectId: number;
  userId: number;
}

export async function selectFitnessByStudents(
  store: ReadModelStore,
  database: string,
  scope: FitnessScope,
  keys: StudentKey[],
): Promise<FitnessView[]> {
  if (keys.length === 0) return [];
  const tuples = [...new Set(keys.map((k) => `(${uint(k.detectId)}, ${uint(k.userId)})`))].join(', ');
  const students = `(detect_id, user_id) IN (${tuples})`;
  const s = fitnessScopeSql(database, scope, [students]);
  const rows = await store.select<LatestFitnessRow>(
    'fitnessByStudents',
    latestFitnessSql(database, { where: [students, ...s.where], having: s.having, tail: 'ORDER BY data_id' }),
  );
  return rows.map(toFitnessView);
}
