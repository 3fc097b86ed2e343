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
import { ageMsSql, nowSql, nowPlusMsSql, dialectOf, placeholders, rowsOf } from '../../../infra/sql/dialect';
import { CLAIMED_COLUMNS, relayRecordOf, type ClaimedRowColumns } from '../../relayPort/relayRecord';
import type { Claim, ClaimRequest, RelayRecord } from '../../relayPort/publicationTable';

interface Row extends ClaimedRowColumns {
  relay_attempts: number;
}

const RETURNED = [...CLAIMED_COLUMNS, 'relay_attempts'];

/** A row a claim may take (also what an idle relay looks for first: hasDuePublications). */
export function eligible(now: string): string {
  return `status = 'NOT_PUBLISHED' AND next_attempt_at <= ${now} AND (claim_expires_at IS NULL OR claim_expires_at <= ${now})`;
}

/** The claimed row; attempts counts the failures so far plus the attempt this claim makes. */
const toRecord = (r: Row): RelayRecord => relayRecordOf(r, { attempts: Number(r.relay_attempts) + 1, from: 'NOT_PUBLISHED' });

/**
 * The claim owner stored in claim_owner is `<owner>:<token>` (at most 128 characters): unique to this
 * claim, and it still names the process that holds it. It is the claim's token for every completion.
 */
export async function claimNextBatch(db: Knex, o: Pick<ClaimRequest, 'owner' | 'token' | 'leaseMs' | 'limit'>): Promise<Claim> {
  const d = dialectOf(db);
  const now = nowSql(d);
  const token = `${o.owner}:${o.token}`.slice(-128);
  const age = `${ageMsSql(d, 'created_at')} AS age_ms`;
  if (d === 'postgres') {
    const r = await db.raw(
      `UPDATE event_publications p
          SET claim_owner = ?, claim_expires_at = ${nowPlusMsSql(d)}
         FROM (SELECT id FROM event_publications WHERE ${eligible(now)} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) picked
        WHERE p.id = picked.id
      RETURNING ${RETURNED.map((c) => `p.${c}`).join(', ')}, ${age.replace('created_at', 'p.created_at')}`,
      [token, o.leaseMs, o.limit],
    );
    return {
      token,
      records: rowsOf<Row>(d, r)
        .map(toRecord)
        .sort((a, b) => a.id - b.id),
      reclaimed: 0,
      gaveUp: [],
    };
  }
  const records = await db.transaction(
    async (trx) => {
      const pick = `SELECT id FROM event_publications WHERE ${eligible(now)} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`;
      const ids = rowsOf<{ id: number }>(d, await trx.raw(pick, [o.limit])).map((p) => p.id);
      if (ids.length === 0) return [];
      const inIds = `id IN (${placeholders(ids.length)})`;
      await trx.raw(`UPDATE event_publications SET claim_owner = ?, claim_expires_at = ${nowPlusMsSql(d)} WHERE ${inIds}`, [
        token,
        o.leaseMs,
        ...ids,
      ]);
      const read = `SELECT ${RETURNED.join(', ')}, ${age} FROM event_publications WHERE ${inIds} ORDER BY id`;
      return rowsOf<Row>(d, await trx.raw(read, ids)).map(toRecord);
    },
    { isolationLevel: 'read committed' },
  );
  return { token, records, reclaimed: 0, gaveUp: [] };
}
