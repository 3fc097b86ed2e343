// The orders SourceReader: the authoritative `orders` rows in PostgreSQL. Events are rebuilt with the
// domain's own builder, so a replay is byte-identical to the original (order-placed:{orderId}:v1).
import type { Knex } from 'knex';
import { orderPlacedEvent } from '../events';
import { isConnectionError, StoreUnavailableError } from '../../../shared/errors';
import type { SourceReader } from '../../contract/sourceReader';
import type { OrderWindowScope } from './windowScope';
import type { ScopeBase } from '../../contract/scope';
import { readOrders } from './sql/readAuthoritative';
import { openWindowSnapshot } from './sql/windowSnapshot';
import { ordersBuckets } from './sql/sourceBuckets';
import { ordersCounts } from './sql/sourceCounts';
import { ordersRevision } from './sql/sourceRevision';
import { ordersStates } from './sql/sourceStates';

function window(scope: ScopeBase): OrderWindowScope {
  if (scope.domain !== 'orders') throw new TypeError('not an order window');
  return scope as OrderWindowScope;
}

export function ordersSource(db: Knex): SourceReader {
  return {
    domain: 'orders',
    revision: (scope) => ordersRevision(db, window(scope)),
    counts: (scope) => ordersCounts(db, window(scope)),
    buckets: (scope, level, count) => ordersBuckets(db, window(scope), level, count),
    states: (scope, level, filter) => ordersStates(db, window(scope), level, filter),
    // In schema version 1, the one every reader knows (as the fitness source's eventOfState): never
    // `.map(orderPlacedEvent)`, which would pass each order's index as its schema version.
    events: async (scope, ids) => (await readOrders(db, window(scope), ids)).map((o) => orderPlacedEvent(o, 1)),
    async openSnapshot(scope) {
      const w = window(scope);
      const { trx, revision } = await openWindowSnapshot(db, w).catch((err: unknown) =>
        Promise.reject(isConnectionError(err) ? new StoreUnavailableError('postgres', err) : err),
      );
      let closed: Promise<void> | undefined;
      return {
        revision,
        counts: () => ordersCounts(trx, w),
        buckets: (level, count) => ordersBuckets(trx, w, level, count),
        states: (level, filter) => ordersStates(trx, w, level, filter),
        // Read-only: committing ends the snapshot like a rollback would.
        close: () =>
          (closed ??= trx.commit().then(
            () => undefined,
            () => undefined,
          )),
      };
    },
  };
}
