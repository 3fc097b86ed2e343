// Evidence that an event reached Kafka even though no publication row exists (the normal, direct
// path writes none). The reconciler asks before rebuilding a row, so an order that was delivered is
// not republished. The adapter reads the ClickHouse `orders` projection: an order_id present there was
// consumed from Kafka, so it was delivered. An order delivered but not yet projected has no evidence
// yet; that is the remaining duplicate risk (docs/kafka-first.md), bounded by grace period vs lag.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, list, str } from '../../infra/clickhouse/literal';

export interface DeliveryEvidence {
  /** The subset of `aggregateIds` known to have been delivered. Throws when the evidence is unavailable. */
  delivered(aggregateIds: readonly string[]): Promise<Set<string>>;
}

/** No evidence at all: every order without a row is rebuilt (the original design's behaviour). */
export const noDeliveryEvidence: DeliveryEvidence = { delivered: async () => new Set() };

const CHUNK = 1000; // keeps the IN list far below max_query_size (256 KiB by default)

/** Orders present in the ClickHouse projection `<database>.orders` (column order_id). */
export function fromClickHouseOrdersEvidence(ch: ClickHouseClient, database: string, table = 'orders'): DeliveryEvidence {
  const from = `${ident(database)}.${ident(table)}`;
  return {
    async delivered(ids) {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        // Any physical row counts: an order has one version, and a row means Kafka delivered it.
        const rs = await ch.query({
          query: `SELECT DISTINCT order_id FROM ${from} WHERE order_id IN ${list(chunk, str)}`,
          format: 'JSONEachRow',
        });
        for (const r of await rs.json<{ order_id: string }>()) found.add(r.order_id);
      }
      return found;
    },
  };
}
