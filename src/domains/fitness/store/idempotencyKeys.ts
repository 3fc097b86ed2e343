// SQL: claim a client idempotency key for a record command, or find who claimed it first.
//
// Locking: the key row is inserted inside the business transaction, before the result row. A
// concurrent request with the same key blocks on the primary key until the first transaction ends;
// if the first commits, the second gets a duplicate-key error and answers with the stored first
// response; if it rolls back, the second proceeds as the first. No SELECT ... FOR UPDATE is used for
// the check: on a missing key it would take gap locks and two racing requests would deadlock.
// Keys are unique per shard; a record is routed by userId, so a retry reaches the same shard.
import type { Knex } from 'knex';
import { IDEMPOTENCY_KEYS } from './rows';

export interface IdempotencyRecord {
  requestHash: string;
  dataId: number;
  response: string;
}

const DUPLICATE_KEY = 1062;

/** Inserts the key; returns false when the key already exists (committed by an earlier request). */
export async function claimIdempotencyKey(trx: Knex.Transaction, key: string, rec: IdempotencyRecord, now: Date): Promise<boolean> {
  try {
    await trx(IDEMPOTENCY_KEYS).insert({
      idempotency_key: key,
      request_hash: rec.requestHash,
      data_id: rec.dataId,
      response: rec.response,
      created_at: now,
    });
    return true;
  } catch (err) {
    if ((err as { errno?: number }).errno === DUPLICATE_KEY) return false;
    throw err;
  }
}

export async function readIdempotencyKey(db: Knex, key: string): Promise<IdempotencyRecord | undefined> {
  const row = (await db(IDEMPOTENCY_KEYS).where({ idempotency_key: key }).first()) as
    { request_hash: string; data_id: number | string; response: string } | undefined;
  return row && { requestHash: row.request_hash, dataId: Number(row.data_id), response: row.response };
}
