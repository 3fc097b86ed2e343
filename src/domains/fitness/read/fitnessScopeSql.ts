// The fitness scope as SQL (src/domains/fitness/policy.ts), inside every fitness read-model query.
//   teacher   results whose LATEST version is at one of its schools (reports: same, no suppression)
//   student   results whose user_id is its own
//   analyst   reports only, over every row or its schools (suppression: contract/scopeSql.ts)
//   operator, service   every row
// A correction may move a result to another school, so school_id is a latest-version
// condition: HAVING on argMax(school_id, version), never a WHERE before the grouping (that would keep
// an old version that matched and show a result that has since left the school). user_id never
// changes across versions, so it is also a plain WHERE pre-filter. For schools the
// pre-filter is `data_id IN (ids that ever had one of these schools)`: the latest version's school is
// one of its versions' schools, so it drops nothing in scope, and HAVING decides. That sub-select is
// only worth it when nothing else bounds the scan (a teacher listing without a filter): a query that
// already has a condition on immutable columns (`narrowing`: the ids of a lookup, a student, the
// campaign of a report or page) reads just those granules, and the latest-version HAVING alone is
// cheaper than a second scan to build an id set (row 6: a teacher's report cost 1.4x an operator's
// with the sub-select, 1.0x without).
// Pruning: fitness_results is ORDER BY data_id (stable across versions; a mutable school cannot be in
// the key), so no scope prunes by primary key: user_id filters skip rows early, the school scope costs
// the sub-select plus the latest-version condition. Same SQL on every ClickHouse release.
import { ident, list, uint } from '../../../infra/clickhouse/literal';
import { NOTHING, unique, type ScopeSql } from '../../contract/scopeSql';
import type { FitnessScope } from '../policy';

/** Results that ever had one of these schools: a safe pre-filter for a latest-version school condition. */
function everAtSchoolsSql(database: string, schoolIds: readonly number[]): string {
  return `data_id IN (SELECT data_id FROM ${ident(database)}.fitness_results WHERE school_id IN ${list(unique(schoolIds), uint)})`;
}

/**
 * The fitness scope over latestFitnessSql's aliases (l_school_id, l_user_id). `narrowing`: the query's
 * own conditions on immutable columns; when there are any, the school pre-filter is left out.
 */
export function fitnessScopeSql(database: string, s: FitnessScope, narrowing: readonly string[] = []): ScopeSql {
  if (s.all) return { where: [], having: [] };
  const { schoolIds, userIds } = s;
  if (schoolIds.length === 0 && userIds.length === 0) return { where: [NOTHING], having: [] };
  const users = userIds.length ? `user_id IN ${list(unique(userIds), uint)}` : '';
  if (schoolIds.length === 0) return { where: [users], having: [] };
  const latest = `l_school_id IN ${list(unique(schoolIds), uint)}`;
  const bounded = narrowing.length > 0;
  if (userIds.length === 0) return { where: bounded ? [] : [everAtSchoolsSql(database, schoolIds)], having: [latest] };
  return {
    where: bounded ? [] : [`(${users} OR ${everAtSchoolsSql(database, schoolIds)})`],
    having: [`(${latest} OR l_user_id IN ${list(unique(userIds), uint)})`],
  };
}

/** Canonical text of a scope: equal scopes, equal keys (used to keep loaders and caches apart). */
export function fitnessScopeKey(s: FitnessScope): string {
  if (s.all) return '*';
  const sorted = (xs: readonly number[]) => unique(xs).sort((a, b) => a - b);
  return `s${sorted(s.schoolIds).join(',')}|u${sorted(s.userIds).join(',')}`;
}
