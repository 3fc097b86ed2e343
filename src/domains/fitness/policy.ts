// Who may see and change which fitness results: the domain's one authorisation policy, applied by the
// write service (on the aggregate's latest state, under its row lock) and by every read-model query
// (on the latest version, inside the ClickHouse query). A row is in a scope when its latest version's
// school is one of schoolIds or its student is one of userIds; `all` is every row.
import { hasRole, isUnscoped, type Principal } from '../../auth/principal';
import { reportAccessFor, scopeFor, type DomainPolicy, type ReportAccess } from '../../auth/access';
import type { DataIn } from '../contract/domainModule';

export type FitnessScope = { all: true } | { all: false; schoolIds: readonly number[]; userIds: readonly number[] };

export const ALL_FITNESS: FitnessScope = { all: true };

const schools = (p: Principal): FitnessScope => ({ all: false, schoolIds: p.schoolIds ?? [], userIds: [] });

export const fitnessPolicy: DomainPolicy<FitnessScope> = {
  domain: 'fitness',
  read(p) {
    if (isUnscoped(p)) return ALL_FITNESS;
    const schoolIds = hasRole(p, 'teacher') ? (p.schoolIds ?? []) : [];
    const userIds = hasRole(p, 'student') && p.userId !== undefined ? [p.userId] : [];
    return schoolIds.length || userIds.length ? { all: false, schoolIds, userIds } : undefined;
  },
  write(p) {
    if (isUnscoped(p)) return ALL_FITNESS;
    return hasRole(p, 'teacher') ? schools(p) : undefined;
  },
  report(p, minGroupSize) {
    if (isUnscoped(p)) return { scope: ALL_FITNESS, minGroupSize: 0 };
    // An analyst sees groups, never people: suppression applies even when it also teaches.
    if (hasRole(p, 'analyst')) return { scope: p.schoolIds ? schools(p) : ALL_FITNESS, minGroupSize };
    if (hasRole(p, 'teacher')) return { scope: schools(p), minGroupSize: 0 };
    return undefined;
  },
};

/** Whether a result of this school and student is in the scope (the latest version decides). */
export function inFitnessScope(s: FitnessScope, row: { schoolId: number; userId: number }): boolean {
  return s.all || s.schoolIds.includes(row.schoolId) || s.userIds.includes(row.userId);
}

/** The rows a scope covers, as a filter on pending event data (undefined: every row). */
export function fitnessMembership(s: FitnessScope): DataIn | undefined {
  return s.all ? undefined : { schoolId: s.schoolIds, userId: s.userIds };
}

/** What a principal may read of fitness results (FORBIDDEN when the policy gives it nothing). */
export const fitnessReadScope = (p: Principal): FitnessScope => scopeFor(fitnessPolicy, p, 'read');

/** What a principal may aggregate of fitness results, with the group size its reports must keep. */
export const fitnessReportAccess = (p: Principal, minGroupSize: number): ReportAccess<FitnessScope> =>
  reportAccessFor(fitnessPolicy, p, minGroupSize);
