// INSERT INTO erased_aggregates: the guard rows of one erasure, written before any row of the
// aggregates is deleted (src/erasure/stores/clickhouseErasure.ts). Idempotent: ids the table already
// holds for the domain are not written again, so the first erased_at of an aggregate stays its guard
// time (the erasure waits from it; a repeated erase after a crash reads it back instead of restarting
// the wait). A pseudonymisation writes its pseudonym (migration 006); a deletion ''. Two concurrent
// inserts of one id both land and collapse by merge; readers take min(erased_at_ms), so the earlier one
// still counts. No locking: append-only MergeTree inserts.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Domain } from '../../shared/domain';
import { clickHouseDateTime } from '../../domains/contract/clickHouseTime';
import { insertJsonEachRow, jsonLine } from '../sql/insertJsonEachRow';
import { erasedAmong } from './selectErased';

export const ERASED_TABLE = 'erased_aggregates';

/** Writes the missing guard rows; returns how many were new. */
export async function insertErased(
  ch: ClickHouseClient,
  database: string,
  g: { domain: Domain; aggregateIds: readonly string[]; erasureId: string; at: Date; pseudonym?: string },
): Promise<number> {
  const present = await erasedAmong(ch, database, g.domain, g.aggregateIds);
  const missing = [...new Set(g.aggregateIds)].filter((id) => !present.has(id));
  const ms = g.at.getTime();
  await insertJsonEachRow(
    ch,
    database,
    ERASED_TABLE,
    missing.map((id) =>
      jsonLine({
        domain: g.domain,
        aggregate_id: id,
        erasure_id: g.erasureId,
        erased_at: clickHouseDateTime(ms),
        erased_at_ms: ms,
        pseudonym: g.pseudonym ?? '',
      }),
    ),
  );
  return missing.length;
}
