// Operator replay: DEAD_LETTER rows of a domain (optionally only the listed eventIds) go back to
// NOT_PUBLISHED with a fresh attempt budget (relay_attempts 0, due now), replay_count + 1. The last
// error stays on the row for the record until the next attempt overwrites it.
//
// Bounded: at most `limit` rows per call, oldest first. Locking: the rows are picked with
// FOR UPDATE SKIP LOCKED so a replay never waits on, or fights, a concurrent replay; the update
// re-checks status = 'DEAD_LETTER' so a row is replayed once. PostgreSQL: one UPDATE .. WHERE id IN
// (SELECT .. LIMIT .. SKIP LOCKED) RETURNING. MySQL/MariaDB reject LIMIT inside IN (subquery), so they
// select the ids and update them in one short transaction.
import type { Knex } from 'knex';
import type { Domain } from '../../event';
import { nowSql, dialectOf, placeholders, rowsOf } from '../../../infra/sql/dialect';

export interface ReplayFilter {
  domain: Domain;
  eventIds?: string[];
  limit: number;
}

export interface ReplayedPublication {
  eventId: string;
  aggregateId: string;
  version: number;
}

type Row = { event_id: string; aggregate_id: string; version: number };
const replayed = (r: Row): ReplayedPublication => ({ eventId: r.event_id, aggregateId: r.aggregate_id, version: Number(r.version) });

export async function replayDeadLetters(db: Knex, f: ReplayFilter): Promise<ReplayedPublication[]> {
  const d = dialectOf(db);
  const byIds = f.eventIds?.length ? ` AND event_id IN (${placeholders(f.eventIds.length)})` : '';
  const pick = `SELECT id FROM event_publications WHERE status = 'DEAD_LETTER' AND domain = ?${byIds} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`;
  const pickBindings = [f.domain, ...(f.eventIds ?? []), f.limit];
  const set =
    `SET status = 'NOT_PUBLISHED', relay_attempts = 0, replay_count = replay_count + 1, next_attempt_at = ${nowSql(d)}, ` +
    'claim_owner = NULL, claim_expires_at = NULL';
  if (d === 'postgres') {
    const r = await db.raw(
      `UPDATE event_publications ${set} WHERE status = 'DEAD_LETTER' AND id IN (${pick}) RETURNING event_id, aggregate_id, version`,
      pickBindings,
    );
    return rowsOf<Row>(d, r).map(replayed);
  }
  return db.transaction(async (trx) => {
    const ids = rowsOf<{ id: number }>(d, await trx.raw(pick, pickBindings)).map((x) => x.id);
    if (ids.length === 0) return [];
    const rows = rowsOf<Row>(
      d,
      await trx.raw(`SELECT event_id, aggregate_id, version FROM event_publications WHERE id IN (${placeholders(ids.length)})`, ids),
    );
    await trx.raw(`UPDATE event_publications ${set} WHERE status = 'DEAD_LETTER' AND id IN (${placeholders(ids.length)})`, ids);
    return rows.map(replayed);
  });
}
