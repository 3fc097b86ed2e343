// SELECT FROM erased_aggregates: which of some aggregate ids of a domain are erased (and since when),
// and every guard row written since a time (the writers' cache, erasedAggregatesCache.ts), with its
// pseudonym ('' for an erased aggregate; the first guard row's, by argMin, if an id was guarded twice).
// ORDER BY (domain, aggregate_id) serves the first (primary-key range per id list); the second scans
// the table, which holds one small row per erased aggregate. No FINAL: a repeated row of an id
// collapses in the GROUP BY, and min(erased_at_ms) is the first guard time whatever the merges did.
// No locking: a read of the parts present when it starts. Values through literal.ts only (18.16 has
// no server-side parameters); id lists in chunks so a large erasure stays below max_query_size.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, list, str, uint } from '../../infra/clickhouse/literal';
import type { Domain } from '../../shared/domain';

const CHUNK = 1000;

/** The erased ones among `aggregateIds`, each with its first guard time (epoch ms). */
export async function erasedAmong(
  ch: ClickHouseClient,
  database: string,
  domain: Domain,
  aggregateIds: readonly string[],
): Promise<Map<string, number>> {
  const ids = [...new Set(aggregateIds)];
  const found = new Map<string, number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rs = await ch.query({
      query:
        `SELECT aggregate_id, min(erased_at_ms) AS at FROM ${ident(database)}.erased_aggregates ` +
        `WHERE domain = ${str(domain)} AND aggregate_id IN ${list(ids.slice(i, i + CHUNK), str)} GROUP BY aggregate_id`,
      format: 'JSONEachRow',
    });
    for (const r of await rs.json<{ aggregate_id: string; at: string | number }>()) found.set(r.aggregate_id, Number(r.at));
  }
  return found;
}

export interface ErasedRow {
  domain: Domain;
  aggregateId: string;
  erasedAtMs: number;
  /** '' : erased (writers drop it); otherwise pseudonymised (writers rewrite its subject column with this). */
  pseudonym: string;
}

/** Every guard row whose guard time is at or after `sinceMs` (0: all of them). */
export async function erasedSince(ch: ClickHouseClient, database: string, sinceMs: number): Promise<ErasedRow[]> {
  const rs = await ch.query({
    query:
      `SELECT domain, aggregate_id, min(erased_at_ms) AS at, argMin(pseudonym, erased_at_ms) AS pseudonym ` +
      `FROM ${ident(database)}.erased_aggregates WHERE erased_at_ms >= ${uint(Math.max(0, Math.floor(sinceMs)))} GROUP BY domain, aggregate_id`,
    format: 'JSONEachRow',
  });
  return (await rs.json<{ domain: string; aggregate_id: string; at: string | number; pseudonym: string }>()).map((r) => ({
    domain: r.domain,
    aggregateId: r.aggregate_id,
    erasedAtMs: Number(r.at),
    pseudonym: r.pseudonym,
  }));
}
