// The orders domain's reconciliation part: its scopes are order time windows, the schedule's are
// single UTC hours (orders are immutable, so an hour that ended before the quiet time no longer
// changes), and under the kafka-first strategy its orders are scanned for missing publications.
import { uint } from '../../../infra/clickhouse/literal';
import type { ReconciledDomain } from '../../contract/reconciliation';
import { orderPlacedEvent } from '../events';
import { ordersSource } from './ordersSource';
import { findOrdersWithoutPublications } from './sql/findOrdersWithoutPublications';
import { orderHours } from './sql/orderHours';
import { recentHourWindows } from './sql/recentWindows';
import { hourFloor, isWholeHour, orderHourScope, orderWindowScope, windowJson, windowKey, type OrderWindowScope } from './windowScope';

export const ordersReconciliation: ReconciledDomain<OrderWindowScope> = {
  domain: 'orders',
  scopeKey: windowKey,
  scopeJson: windowJson,
  scopeFromJson: (o) => orderWindowScope(o.from, o.to),
  isRegisteredKind: isWholeHour,
  pendingFilter: (s) => ({ createdFrom: s.from, createdTo: s.to }),
  targetWhere: (s) => `created_at_ms >= ${uint(s.from.getTime())} AND created_at_ms < ${uint(s.to.getTime())}`,
  source: (stores) => ordersSource(stores.pg, stores.schemaVersions),

  // Only hours that ended by the quiet time are completed; an hour still open is not named as changing.
  async changedScopes(stores, w) {
    const until = hourFloor(w.quietBeforeMs);
    if (until.getTime() <= w.sinceMs) return { completed: [], changing: [] };
    const hours = await recentHourWindows(stores.pg, new Date(w.sinceMs), until);
    return { completed: hours.map((h) => ({ scope: orderHourScope(h.from), lastChangeMs: h.lastChangeMs })), changing: [] };
  },

  async registeredScopes(stores, w) {
    return (await orderHours(stores.pg, hourFloor(w.quietBeforeMs))).map(orderHourScope);
  },

  async scopesChangedIn(stores, fromMs, toMs) {
    return (await recentHourWindows(stores.pg, new Date(fromMs), new Date(toMs + 1))).map((h) => orderHourScope(h.from));
  },

  unpublished: {
    async find(db, o) {
      const orders = await findOrdersWithoutPublications(db, o);
      // One answer for the batch: the gate's is cached, and one scan writes one version.
      const schemaVersion = o.schemaVersions?.toWrite('orders') ?? 1;
      return orders.map((order) => ({
        position: { createdAt: order.createdAt, aggregateId: order.orderId },
        event: orderPlacedEvent(order, schemaVersion),
      }));
    },
  },
};
