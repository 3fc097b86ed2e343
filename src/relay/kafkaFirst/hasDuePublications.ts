// SQL: is there a NOT_PUBLISHED row for a claim to take? A cheap look before the claim transaction.
//
// Locking: none. One autocommit EXISTS on the (status, id) relay index, stopping at the first due row
// (next attempt time reached, no live claim). An idle kafka-first relay polls with this instead of a
// claim transaction; a row committed just after the look is found by the next poll.
import type { Knex } from 'knex';
import { dialectOf, nowSql, rowsOf } from '../../infra/sql/dialect';

export async function hasDuePublications(db: Knex): Promise<boolean> {
  const d = dialectOf(db);
  const now = nowSql(d);
  const r = await db.raw(
    `SELECT EXISTS (SELECT 1 FROM event_publications
                     WHERE status = 'NOT_PUBLISHED' AND next_attempt_at <= ${now}
                       AND (claim_expires_at IS NULL OR claim_expires_at <= ${now})) AS due`,
  );
  const due = rowsOf<{ due: unknown }>(d, r)[0]?.due;
  return due === true || due === 1 || due === '1';
}
