// SQL: claim a batch of outbox rows for one relay.
//
// Locking: one short transaction at READ COMMITTED. Three locking reads, each
// `FOR UPDATE SKIP LOCKED` on its own range of the (status, due_at) index (due_at is the lease expiry
// of a PROCESSING row, the retry time of a FAILED row and the creation time of a NEW row; see
// migrations/outboxDueAt.ts), so concurrent relays take disjoint rows without
// waiting for each other, and READ COMMITTED keeps InnoDB from taking gap locks that would block the
// business transactions inserting new outbox rows:
//   1. PROCESSING rows whose lease expired (their relay crashed or stalled): reclaimed, or PARKED when
//      the attempt limit is already used up (so a row that kills every relay cannot loop forever);
//   2. FAILED rows whose next_retry_at has come;
//   3. NEW rows, oldest first.
// The chosen rows (already locked by this transaction) are updated by primary key and marked PROCESSING
// with this claim's token, the owner's name, attempts + 1 and a
// lease expiry from the database clock (NOW(3)/now() + lease), and the transaction commits before
// anything is published: no lock is held across a network call. From then on the persisted token and
// lease, not the row locks, say who owns the row. Expired rows are taken first so a backlog of NEW
// rows cannot starve recovery.
import type { Knex } from 'knex';
import { summarizeError } from '../../../shared/redact';
import { ageMsSql } from '../../../infra/sql/dialect';
import type { Claim, ClaimRequest } from '../../relayPort/publicationTable';
import { dialectOf, nowPlusMs, nowSql, outboxById } from '../dialect';
import { outboxRecordOf, OUTBOX_TABLE, SELECTED_COLUMNS, type OutboxRowSelected } from '../outboxEvent';

export async function claimBatch(db: Knex, o: ClaimRequest): Promise<Claim> {
  const d = dialectOf(db);
  const now = db.raw(nowSql(d));
  const columns = [...SELECTED_COLUMNS, db.raw(`${ageMsSql(d, 'created_at')} AS age_ms`)];
  return db.transaction(
    async (trx) => {
      const expired = (await trx(OUTBOX_TABLE)
        .select(columns)
        .where('status', 'PROCESSING')
        .andWhere('due_at', '<=', now)
        .orderBy('due_at')
        .limit(o.limit)
        .forUpdate()
        .skipLocked()) as OutboxRowSelected[];
      const exhausted = expired.filter((r) => o.giveUp(Number(r.attempts)));
      const reclaim = expired.filter((r) => !o.giveUp(Number(r.attempts)));
      if (exhausted.length) {
        const e = summarizeError({
          code: 'LEASE_EXPIRED',
          message: 'the claim expired without completion too many times (relay crashed or stalled while publishing)',
        });
        await outboxById(trx, OUTBOX_TABLE)
          .whereIn(
            'id',
            exhausted.map((r) => r.id),
          )
          .update({
            status: 'PARKED',
            parked_at: now,
            claim_token: null,
            lease_expires_at: null,
            next_retry_at: null,
            last_error_code: e.code,
            last_error_summary: e.summary,
          });
      }
      let rows = reclaim;
      if (rows.length < o.limit) {
        const due = (await trx(OUTBOX_TABLE)
          .select(columns)
          .where('status', 'FAILED')
          .andWhere('due_at', '<=', now)
          .orderBy('due_at')
          .limit(o.limit - rows.length)
          .forUpdate()
          .skipLocked()) as OutboxRowSelected[];
        rows = rows.concat(due);
      }
      if (rows.length < o.limit) {
        const fresh = (await trx(OUTBOX_TABLE)
          .select(columns)
          .where('status', 'NEW')
          .orderBy([{ column: 'due_at' }, { column: 'id' }])
          .limit(o.limit - rows.length)
          .forUpdate()
          .skipLocked()) as OutboxRowSelected[];
        rows = rows.concat(fresh);
      }
      if (rows.length) {
        await outboxById(trx, OUTBOX_TABLE)
          .whereIn(
            'id',
            rows.map((r) => r.id),
          )
          .update({
            status: 'PROCESSING',
            claim_token: o.token,
            claimed_by: o.owner.slice(0, 64),
            lease_expires_at: nowPlusMs(trx, o.leaseMs),
            attempts: trx.raw('attempts + 1'),
          });
      }
      // Publish in id order: two versions of one aggregate in a batch keep their commit order.
      const records = rows.map((r) => outboxRecordOf(r)).sort((a, b) => a.id - b.id);
      return { token: o.token, records, reclaimed: reclaim.length, gaveUp: exhausted.map((r) => outboxRecordOf(r, false)) };
    },
    { isolationLevel: 'read committed' },
  );
}
