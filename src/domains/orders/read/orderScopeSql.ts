// The order scope as SQL (src/domains/orders/policy.ts), inside every order read-model query: a
// customer sees the orders whose customer_id is its own; an analyst reports only (suppression:
// contract/scopeSql.ts); operator and service see every row. customer_id never changes across
// versions, so a WHERE before the grouping is exact. orders is ORDER BY order_id, so the scope does not
// prune by primary key: the customer_id filter skips rows early. Same SQL on every ClickHouse release.
import { list, str } from '../../../infra/clickhouse/literal';
import { NOTHING, unique } from '../../contract/scopeSql';
import type { OrderScope } from '../policy';

/** The order scope: customer_id is immutable, so a WHERE condition is exact. */
export function orderScopeSql(s: OrderScope): string[] {
  if (s.all) return [];
  return s.customerIds.length ? [`customer_id IN ${list(unique(s.customerIds), str)}`] : [NOTHING];
}

/** Canonical text of an order scope: equal scopes, equal keys (loaders and caches kept apart). */
export function orderScopeKey(s: OrderScope): string {
  return s.all ? '*' : JSON.stringify(unique(s.customerIds).sort());
}
