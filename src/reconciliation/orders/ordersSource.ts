// The orders SourceReader: the authoritative `orders` rows in PostgreSQL. Events are rebuilt with the
// domain's own builder, so a replay is byte-identical to the original (order-placed:{orderId}:v1).
import type { Knex } from 'knex';
import { orderPlacedEvent } from '../../domains/orders/events';
import type { SourceReader } from '../ports';
import type { OrderWindowScope, Scope } from '../scope';
import { readOrders } from './sql/readAuthoritative';
import { ordersBuckets } from './sql/sourceBuckets';
import { ordersCounts } from './sql/sourceCounts';
import { ordersRevision } from './sql/sourceRevision';
import { ordersStates } from './sql/sourceStates';

function window(scope: Scope): OrderWindowScope {
  if (scope.domain !== 'orders') throw new TypeError('not an order window');
  return scope;
}

export function ordersSource(db: Knex): SourceReader {
  return {
    domain: 'orders',
    revision: (scope) => ordersRevision(db, window(scope)),
    counts: (scope) => ordersCounts(db, window(scope)),
    buckets: (scope, level, count) => ordersBuckets(db, window(scope), level, count),
    states: (scope, level, filter) => ordersStates(db, window(scope), level, filter),
    events: async (scope, ids) => (await readOrders(db, window(scope), ids)).map(orderPlacedEvent),
  };
}
