// Evidence that an event reached Kafka even though no publication row exists (the normal, direct
// path writes none). The reconciler asks before rebuilding a row, so a record that was delivered is
// not republished. The adapter reads the domain's ClickHouse projection (for orders `orders`): an
// aggregate projected at the event's version or a later one was consumed from Kafka up to that
// version, so it was delivered (per key, Kafka delivers an aggregate's versions in order). A record delivered but not
// yet projected has no evidence yet; that is the remaining duplicate risk (docs/kafka-first.md),
// bounded by grace period vs lag.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, list } from '../../infra/clickhouse/literal';

/** One event asked about: its aggregate and the version it carries. */
export interface EventVersion {
  aggregateId: string;
  version: number;
}

export interface DeliveryEvidence {
  /** The aggregate ids of `events` known to have been delivered at their version. Throws when unavailable. */
  delivered(events: readonly EventVersion[]): Promise<Set<string>>;
}

/** No evidence at all: every record without a row is rebuilt (the original design's behaviour). */
export const noDeliveryEvidence: DeliveryEvidence = { delivered: async () => new Set() };

const CHUNK = 1000; // keeps the IN list far below max_query_size (256 KiB by default)

/** Aggregates present in a ClickHouse projection table `<database>.<table>` (its aggregate id column). */
export function fromClickHouseProjectionEvidence(
  ch: ClickHouseClient,
  database: string,
  projection: { table: string; idColumn: string; versionColumn: string; idLiteral(id: string): string },
): DeliveryEvidence {
  const from = `${ident(database)}.${ident(projection.table)}`;
  const id = ident(projection.idColumn);
  return {
    async delivered(events) {
      const found = new Set<string>();
      for (let i = 0; i < events.length; i += CHUNK) {
        const chunk = events.slice(i, i + CHUNK);
        // Any physical row counts (merged or not): the newest version projected per aggregate.
        const rs = await ch.query({
          query:
            `SELECT toString(${id}) AS id, max(${ident(projection.versionColumn)}) AS v FROM ${from} ` +
            `WHERE ${id} IN ${list(
              chunk.map((e) => e.aggregateId),
              (x) => projection.idLiteral(x),
            )} GROUP BY id`,
          format: 'JSONEachRow',
        });
        const newest = new Map((await rs.json<{ id: string; v: number | string }>()).map((r) => [r.id, Number(r.v)]));
        for (const e of chunk) if ((newest.get(e.aggregateId) ?? 0) >= e.version) found.add(e.aggregateId);
      }
      return found;
    },
  };
}
