// The domain-neutral parts of a caller's scope as SQL, shared by every domain's read queries
// (src/domains/<d>/read/*ScopeSql.ts hold who sees what: fitness puts a mutable school on the
// latest version, orders filters an immutable customer_id). A scope is WHERE conditions before the
// grouping plus HAVING conditions on the latest version (the l_ aliases of latestColumns.ts).
// Reports aggregate the report scope only; a group whose members (distinct students, distinct
// customers) are fewer than minGroupSize comes back masked (shown = 0): its statistics never leave
// ClickHouse, only that it exists, so the report can count it.
import { uint } from '../../infra/clickhouse/literal';

/** Conditions for a latest-state query: `where` before the grouping, `having` on the latest version. */
export interface ScopeSql {
  where: string[];
  having: string[];
}

/** No row at all (a scope with nothing in it). */
export const NOTHING = '0';

/** Each value once, in first-seen order (a scope's lists may repeat an id). */
export const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** Columns that mask a group's statistics when it has fewer members than minGroupSize. */
export function suppressionSql(membersExpr: string, minGroupSize: number): string {
  return `${membersExpr} >= ${uint(minGroupSize)} AS shown`;
}

/** `expr` for a shown group, `hidden` for a suppressed one. */
export const ifShown = (expr: string, hidden: string, alias: string): string => `if(shown, ${expr}, ${hidden}) AS ${alias}`;

/** A report's shown groups, and how many groups were too small to show. */
export interface ReportOf<G> {
  groups: G[];
  suppressedGroups: number;
}
