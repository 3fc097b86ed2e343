// The caller's scopes, as the read side needs them: the domain policies (src/domains/<d>/policy.ts)
// decide, these helpers only turn a principal into the policy's answer (FORBIDDEN when it has none)
// and that answer into the membership of a freshness question (PendingScope.dataIn), so a marker
// counts only the pending publications of rows the caller could read.
import { reportAccessFor, scopeFor, type ReportAccess } from '../../auth/access';
import type { Principal } from '../../auth/principal';
import { fitnessPolicy, type FitnessScope } from '../../domains/fitness/policy';
import { ordersPolicy, type OrderScope } from '../../domains/orders/policy';
import type { Domain } from '../../publication/event';
import type { DataIn } from '../freshness/sql/pendingScope';

export const fitnessReadScope = (p: Principal): FitnessScope => scopeFor(fitnessPolicy, p, 'read');
export const orderReadScope = (p: Principal): OrderScope => scopeFor(ordersPolicy, p, 'read');
export const fitnessReportAccess = (p: Principal, minGroupSize: number): ReportAccess<FitnessScope> =>
  reportAccessFor(fitnessPolicy, p, minGroupSize);
export const orderReportAccess = (p: Principal, minGroupSize: number): ReportAccess<OrderScope> =>
  reportAccessFor(ordersPolicy, p, minGroupSize);

export function fitnessMembership(s: FitnessScope): DataIn | undefined {
  return s.all ? undefined : { schoolId: s.schoolIds, userId: s.userIds };
}

export function orderMembership(s: OrderScope): DataIn | undefined {
  return s.all ? undefined : { customerId: s.customerIds };
}

/** The membership of what the caller may read ('read') or aggregate ('report') in a domain. */
export function membershipOf(p: Principal, domain: Domain, use: 'read' | 'report'): DataIn | undefined {
  if (domain === 'fitness') return fitnessMembership(use === 'read' ? fitnessReadScope(p) : fitnessReportAccess(p, 0).scope);
  return orderMembership(use === 'read' ? orderReadScope(p) : orderReportAccess(p, 0).scope);
}
