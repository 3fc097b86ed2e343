// Who sees what, as SQL: the caller's scope (src/domains/<d>/policy.ts) inside every read-model query.
//   customer  orders whose customer_id is its own
//   teacher   results whose LATEST version is at one of its schools (reports: same, no suppression)
//   student   results whose user_id is its own
//   analyst   reports only, over every row or its schools; groups with fewer members suppressed
//   operator, service   every row, no suppression
// Fitness: a correction may move a result to another school, so school_id is a latest-version
// condition: HAVING on argMax(school_id, version), never a WHERE before the grouping (that would keep
// an old version that matched and show a result that has since left the school). user_id and
// customer_id never change across versions, so they are also plain WHERE pre-filters. For schools the
// pre-filter is `data_id IN (ids that ever had one of these schools)`: the latest version's school is
// one of its versions' schools, so it drops nothing in scope, and HAVING decides. That sub-select is
// only worth it when nothing else bounds the scan (a teacher listing without a filter): a query that
// already has a condition on immutable columns (`narrowing`: the ids of a lookup, a student, the
// campaign of a report or page) reads just those granules, and the latest-version HAVING alone is
// cheaper than a second scan to build an id set (row 6: a teacher's report cost 1.4x an operator's
// with the sub-select, 1.0x without).
// Pruning: fitness_results is ORDER BY data_id (stable across versions; a mutable school cannot be in
// the key), orders ORDER BY order_id, so no scope prunes by primary key: user_id/customer_id filters
// skip rows early, the school scope costs the sub-select plus the latest-version condition.
// Reports (fitnessReport, orderReport) aggregate the report scope only; a group whose members
// (distinct students, distinct customers) are fewer than minGroupSize comes back masked (shown = 0):
// its statistics never leave ClickHouse, only that it exists, so the report can count it.
import type { FitnessScope } from '../../../domains/fitness/policy';
import type { OrderScope } from '../../../domains/orders/policy';
import { ident, list, str, uint } from '../../../infra/clickhouse/literal';

/** Conditions for a latest-state query: `where` before the grouping, `having` on the latest version. */
export interface ScopeSql {
  where: string[];
  having: string[];
}

/** No row at all (a scope with nothing in it). */
const NOTHING = '0';

const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

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

/** The order scope: customer_id is immutable, so a WHERE condition is exact. */
export function orderScopeSql(s: OrderScope): string[] {
  if (s.all) return [];
  return s.customerIds.length ? [`customer_id IN ${list(unique(s.customerIds), str)}`] : [NOTHING];
}

/** Columns that mask a group's statistics when it has fewer members than minGroupSize. */
export function suppressionSql(membersExpr: string, minGroupSize: number): string {
  return `${membersExpr} >= ${uint(minGroupSize)} AS shown`;
}

/** `expr` for a shown group, `hidden` for a suppressed one. */
export const ifShown = (expr: string, hidden: string, alias: string): string => `if(shown, ${expr}, ${hidden}) AS ${alias}`;

/** Canonical text of a scope: equal scopes, equal keys (used to keep loaders and caches apart). */
export function fitnessScopeKey(s: FitnessScope): string {
  if (s.all) return '*';
  const sorted = (xs: readonly number[]) => unique(xs).sort((a, b) => a - b);
  return `s${sorted(s.schoolIds).join(',')}|u${sorted(s.userIds).join(',')}`;
}

export function orderScopeKey(s: OrderScope): string {
  return s.all ? '*' : JSON.stringify(unique(s.customerIds).sort());
}
