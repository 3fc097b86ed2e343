// Who may place and see which orders: the domain's one authorisation policy. A customer places and
// reads only its own orders; analysts see reports whose groups hold at least the minimum number of
// customers; operators and trusted services see every order. customer_id never changes across an
// order's versions, so the scope is a filter on an immutable column.
import { hasRole, isUnscoped, type Principal } from '../../auth/principal';
import { reportAccessFor, scopeFor, type DomainPolicy, type ReportAccess } from '../../auth/access';
import type { DataIn } from '../contract/domainModule';

export type OrderScope = { all: true } | { all: false; customerIds: readonly string[] };

export const ALL_ORDERS: OrderScope = { all: true };

export const ordersPolicy: DomainPolicy<OrderScope> = {
  domain: 'orders',
  read(p) {
    if (isUnscoped(p)) return ALL_ORDERS;
    return hasRole(p, 'customer') && p.customerId !== undefined ? { all: false, customerIds: [p.customerId] } : undefined;
  },
  write(p) {
    return this.read(p);
  },
  report(p, minGroupSize) {
    if (isUnscoped(p)) return { scope: ALL_ORDERS, minGroupSize: 0 };
    if (hasRole(p, 'analyst')) return { scope: ALL_ORDERS, minGroupSize };
    return undefined;
  },
};

export function inOrderScope(s: OrderScope, customerId: string): boolean {
  return s.all || s.customerIds.includes(customerId);
}

/** The rows a scope covers, as a filter on pending event data (undefined: every row). */
export function orderMembership(s: OrderScope): DataIn | undefined {
  return s.all ? undefined : { customerId: s.customerIds };
}

/** What a principal may read of orders (FORBIDDEN when the policy gives it nothing). */
export const orderReadScope = (p: Principal): OrderScope => scopeFor(ordersPolicy, p, 'read');

/** What a principal may aggregate of orders, with the group size its reports must keep. */
export const orderReportAccess = (p: Principal, minGroupSize: number): ReportAccess<OrderScope> =>
  reportAccessFor(ordersPolicy, p, minGroupSize);
