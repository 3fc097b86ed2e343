// The backlog gauges of one store: per domain, the NOT_PUBLISHED count and the age of the oldest
// NOT_PUBLISHED row, DEAD_LETTER count, and NOT_PUBLISHED rows whose claim expired. One grouped
// read-only query (no locks; plain snapshot read), ages by the database clock. The status index keeps
// it cheap because only unfinished rows are scanned.
import type { Knex } from 'knex';
import type { Domain } from '../../event';
import { dialectOf, rowsOf } from '../../../infra/sql/dialect';

export interface DomainBacklog {
  domain: Domain;
  notPublished: number;
  oldestNotPublishedAgeSeconds: number;
  deadLetters: number;
  expiredClaims: number;
}

export async function publicationBacklog(db: Knex): Promise<DomainBacklog[]> {
  const d = dialectOf(db);
  const age =
    d === 'postgres'
      ? `EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP(3) - MIN(CASE WHEN status = 'NOT_PUBLISHED' THEN created_at END)))`
      : `TIMESTAMPDIFF(MICROSECOND, MIN(CASE WHEN status = 'NOT_PUBLISHED' THEN created_at END), NOW(3)) / 1000000`;
  const now = d === 'postgres' ? 'CURRENT_TIMESTAMP(3)' : 'NOW(3)';
  const r = await db.raw(
    `SELECT domain,
            SUM(CASE WHEN status = 'NOT_PUBLISHED' THEN 1 ELSE 0 END) AS not_published,
            ${age} AS oldest_age_s,
            SUM(CASE WHEN status = 'DEAD_LETTER' THEN 1 ELSE 0 END) AS dead_letters,
            SUM(CASE WHEN status = 'NOT_PUBLISHED' AND claim_expires_at <= ${now} THEN 1 ELSE 0 END) AS expired_claims
       FROM event_publications
      WHERE status IN ('NOT_PUBLISHED', 'DEAD_LETTER')
      GROUP BY domain`,
  );
  return rowsOf<{ domain: Domain; not_published: unknown; oldest_age_s: unknown; dead_letters: unknown; expired_claims: unknown }>(
    d,
    r,
  ).map((x) => ({
    domain: x.domain,
    notPublished: Number(x.not_published ?? 0),
    oldestNotPublishedAgeSeconds: Math.max(0, Number(x.oldest_age_s ?? 0)),
    deadLetters: Number(x.dead_letters ?? 0),
    expiredClaims: Number(x.expired_claims ?? 0),
  }));
}
