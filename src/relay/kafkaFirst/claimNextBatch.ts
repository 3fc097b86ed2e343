// Claim of the next relay batch from event_publications.
//
// Eligibility, ordering and the batch limit are all SQL: status NOT_PUBLISHED, next_attempt_at due,
// no live claim (claim_expires_at NULL or past), ORDER BY id (oldest first), LIMIT n. Times are the
// database clock's, so relays on machines with skewed clocks agree on due rows and expired claims.
//
// Locking: SELECT .. FOR UPDATE SKIP LOCKED inside one short transaction, then claim_owner (a token
// unique to this claim) and claim_expires_at (database now + lease) are written before commit.
// Concurrent relays skip each other's locked rows instead of waiting, and once the transaction commits
// the persisted claim (not the lock) keeps other relays away until it expires. No lock is held while
// publishing. PostgreSQL does it in one statement (UPDATE .. FROM (SELECT .. SKIP LOCKED) RETURNING);
// MySQL/MariaDB, which lack UPDATE .. RETURNING, select, update and re-read in one READ COMMITTED
// transaction: InnoDB then keeps locks only on the rows it returns (no gap locks, and rows examined but
// not matching are released), and the (status, id) index lets it stop after LIMIT rows.
import type { Knex } from 'knex';
import { nowSql, nowPlusMsSql, dialectOf, placeholders, rowsOf } from '../../infra/sql/dialect';
import type { Domain } from '../../publication/event';

export interface ClaimedPublication {
  id: number;
  eventId: string;
  domain: Domain;
  aggregateId: string;
  version: number;
  topic: string;
  messageKey: string;
  messageValue: string;
  headers: Record<string, string>;
  relayAttempts: number;
}

interface Row {
  id: string | number;
  event_id: string;
  domain: Domain;
  aggregate_id: string;
  version: number;
  topic: string;
  message_key: string;
  message_value: string;
  headers: string;
  relay_attempts: number;
}

const RETURNED = 'id, event_id, domain, aggregate_id, version, topic, message_key, message_value, headers, relay_attempts';

function eligible(now: string): string {
  return `status = 'NOT_PUBLISHED' AND next_attempt_at <= ${now} AND (claim_expires_at IS NULL OR claim_expires_at <= ${now})`;
}

function toClaimed(r: Row): ClaimedPublication {
  return {
    id: Number(r.id),
    eventId: r.event_id,
    domain: r.domain,
    aggregateId: r.aggregate_id,
    version: Number(r.version),
    topic: r.topic,
    messageKey: r.message_key,
    messageValue: r.message_value,
    headers: JSON.parse(r.headers) as Record<string, string>,
    relayAttempts: Number(r.relay_attempts),
  };
}

export async function claimNextBatch(db: Knex, o: { owner: string; leaseMs: number; limit: number }): Promise<ClaimedPublication[]> {
  const d = dialectOf(db);
  const now = nowSql(d);
  if (d === 'postgres') {
    const r = await db.raw(
      `UPDATE event_publications p
          SET claim_owner = ?, claim_expires_at = ${nowPlusMsSql(d)}
         FROM (SELECT id FROM event_publications WHERE ${eligible(now)} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) picked
        WHERE p.id = picked.id
      RETURNING ${RETURNED.split(', ').map((c) => `p.${c}`).join(', ')}`,
      [o.owner, o.leaseMs, o.limit],
    );
    return rowsOf<Row>(d, r).map(toClaimed).sort((a, b) => a.id - b.id);
  }
  return db.transaction(
    async (trx) => {
      const pick = `SELECT id FROM event_publications WHERE ${eligible(now)} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`;
      const ids = rowsOf<{ id: number }>(d, await trx.raw(pick, [o.limit])).map((p) => p.id);
      if (ids.length === 0) return [];
      const inIds = `id IN (${placeholders(ids.length)})`;
      await trx.raw(`UPDATE event_publications SET claim_owner = ?, claim_expires_at = ${nowPlusMsSql(d)} WHERE ${inIds}`, [o.owner, o.leaseMs, ...ids]);
      return rowsOf<Row>(d, await trx.raw(`SELECT ${RETURNED} FROM event_publications WHERE ${inIds} ORDER BY id`, ids)).map(toClaimed);
    },
    { isolationLevel: 'read committed' },
  );
}
