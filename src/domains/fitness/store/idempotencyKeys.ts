// SQL: claim a client idempotency key for a record command, or find who claimed it first.
//
// Keys are unique per caller: the primary key is (owner, idempotency_key), owner being the token
// subject (migrations/mysql/007_write_ownership.ts). Another principal using the same key claims a
// key of its own, so it can neither receive nor block the first caller's result.
//
// Locking: the key row is inserted inside the business transaction, before the result row. A
// concurrent request with the same owner and key blocks on the primary key until the first
// transaction ends; if the first commits, the second gets a duplicate-key error and answers with the
// stored first response; if it rolls back, the second proceeds as the first. No SELECT ... FOR UPDATE
// is used for the check: on a missing key it would take gap locks and two racing requests would
// deadlock. Keys are unique per shard; a record is routed by userId, so a retry reaches the same shard.
import type { Knex } from 'knex';
import { IDEMPOTENCY_KEYS } from './rows';

export interface IdempotencyRecord {
  requestHash: string;
  dataId: number;
  response: string;
}

/** Whose key it is (the token subject) and the key the client chose. */
export interface OwnedKey {
  owner: string;
  key: string;
}

const DUPLICATE_KEY = 1062;

/** Inserts the key; returns false when the caller's key already exists (committed by an earlier request). */
export async function claimIdempotencyKey(trx: Knex.Transaction, k: OwnedKey, rec: IdempotencyRecord, now: Date): Promise<boolean> {
  try {
    await trx(IDEMPOTENCY_KEYS).insert({
      owner: k.owner,
      idempotency_key: k.key,
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

export async function readIdempotencyKey(db: Knex, k: OwnedKey): Promise<IdempotencyRecord | undefined> {
  const row = (await db(IDEMPOTENCY_KEYS).where({ owner: k.owner, idempotency_key: k.key }).first()) as
    { request_hash: string; data_id: number | string; response: string } | undefined;
  return row && { requestHash: row.request_hash, dataId: Number(row.data_id), response: row.response };
}
