// Completion of a relay claim: the rows the broker acknowledged become PUBLISHED.
//
// Guarded by the claim owner (and status NOT_PUBLISHED): if this relay's claim expired and another
// relay re-claimed a row, the owner no longer matches and the update skips it; the caller counts the
// difference as claim_lost. The row is then finished by its new owner (publishing it once more is the
// documented, harmless duplicate). Single UPDATE by primary key list; row locks only on those rows.
import type { Knex } from 'knex';
import { affectedRows, nowSql, dialectOf, placeholders } from '../../../infra/sql/dialect';

/** Returns how many rows this owner still held and marked PUBLISHED. */
export async function markPublished(db: Knex, owner: string, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const d = dialectOf(db);
  const r = await db.raw(
    `UPDATE event_publications
        SET status = 'PUBLISHED', published_at = ${nowSql(d)}, claim_owner = NULL, claim_expires_at = NULL
      WHERE id IN (${placeholders(ids.length)}) AND claim_owner = ? AND status = 'NOT_PUBLISHED'`,
    [...ids, owner],
  );
  return affectedRows(d, r);
}
