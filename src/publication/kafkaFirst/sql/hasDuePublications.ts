// SQL: is there a NOT_PUBLISHED row for a claim to take? A cheap look before the claim transaction.
//
// Locking: none. One autocommit EXISTS on the (status, id) relay index, stopping at the first due row
// (next attempt time reached, no live claim: the claim's own `eligible` condition). An idle kafka-first relay polls with this instead of a
// claim transaction; a row committed just after the look is found by the next poll.
import type { Knex } from 'knex';
import { dialectOf, nowSql, rowsOf } from '../../../infra/sql/dialect';
import { eligible } from './claimNextBatch';

export async function hasDuePublications(db: Knex): Promise<boolean> {
  const d = dialectOf(db);
  const r = await db.raw(`SELECT EXISTS (SELECT 1 FROM event_publications WHERE ${eligible(nowSql(d))}) AS due`);
  const due = rowsOf<{ due: unknown }>(d, r)[0]?.due;
  return due === true || due === 1 || due === '1';
}
