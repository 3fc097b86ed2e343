// Evidence that an event reached Kafka even though no publication row exists (the normal, direct
// path writes none). The reconciler asks before rebuilding a row, so a record that was delivered is
// not republished. The adapter reads the domain's ClickHouse projection (for orders `orders`): an
// aggregate id present there was consumed from Kafka, so it was delivered. A record delivered but not
// yet projected has no evidence yet; that is the remaining duplicate risk (docs/kafka-first.md),
// bounded by grace period vs lag.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, list, str } from '../../infra/clickhouse/literal';

export interface DeliveryEvidence {
  /** The subset of `aggregateIds` known to have been delivered. Throws when the evidence is unavailable. */
  delivered(aggregateIds: readonly string[]): Promise<Set<string>>;
}

/** No evidence at all: every record without a row is rebuilt (the original design's behaviour). */
export const noDeliveryEvidence: DeliveryEvidence = { delivered: async () => new Set() };

const CHUNK = 1000; // keeps the IN list far below max_query_size (256 KiB by default)

/** Aggregates present in a ClickHouse projection table `<database>.<table>` (its aggregate id column). */
export function fromClickHouseProjectionEvidence(
  ch: ClickHouseClient,
  database: string,
  projection: { table: string; idColumn: string },
): DeliveryEvidence {
  const from = `${ident(database)}.${ident(projection.table)}`;
  const id = ident(projection.idColumn);
  return {
    async delivered(ids) {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        // Any physical row counts: a row means Kafka delivered a version (an order has only one).
        const rs = await ch.query({
          query: `SELECT DISTINCT ${id} FROM ${from} WHERE ${id} IN ${list(chunk, str)}`,
          format: 'JSONEachRow',
        });
        for (const r of await rs.json<Record<string, string>>()) found.add(String(r[projection.idColumn]));
      }
      return found;
    },
  };
}
