// The fitness write path: validate (pure, before any I/O), route to the shard, then one local
// transaction through the injected Publisher: read the shard clock, lock the current row, decide,
// write the new version (and the idempotency key), and let the publisher add the event (outbox row
// in the same transaction, or kafka-first after commit). Nothing here knows which strategy runs.
// Authorisation is enforced here, not only at the GraphQL edge: every write takes the acting
// Principal, checked against the LATEST state under the row lock (./writeAccess.ts: FORBIDDEN for a
// school outside the scope, NOT_FOUND for a result outside it). Idempotency keys belong to the
// caller's subject; every version records who wrote it (changedBy).
import type { Knex } from 'knex';
import type { MysqlShard, MysqlShards } from '../../infra/mysql/fromMysql';
import { mysqlServerFeatures } from '../../infra/mysql/serverFeatures';
import { readOutboxStates } from '../../publication/outbox/readOutboxStates';
import type { PublicationOutcome, Publisher } from '../../publication/publisher';
import { fixedSchemaVersions, type EventSchemaVersions } from '../../publication/schemaVersions';
import { NotFoundError, TidemarkError } from '../../shared/errors';
import { decideCorrection, decideDeletion, decideRecord, parseExpectedVersion, validateRecord, type Decision } from './decide';
import { fitnessEventId } from './events';
import { deserialise, requestHash, serialise } from './replayedResponse';
import { defaultProjectCatalog, type ProjectCatalog } from './projects';
import { composeDataId, shardForUser, shardOfDataId } from './sharding';
import { allocateLocalSequence } from './store/allocateDataId';
import { deleteResult } from './store/deleteResult';
import { claimIdempotencyKey, readIdempotencyKey, type OwnedKey } from './store/idempotencyKeys';
import { readResult } from './store/readResult';
import { shardNow } from './store/rows';
import { selectResultForUpdate } from './store/selectResultForUpdate';
import { storeError } from './storeError';
import { insertResult, updateResult } from './store/writeResult';
import type { FitnessService, FitnessWriteOutcome } from './serviceApi';
import type { CorrectFitnessResult, DeleteFitnessResult } from './types';
import { requireWritable, visible, writeAccess } from './writeAccess';

export type { FitnessService, FitnessWriteOutcome } from './serviceApi';

export interface FitnessServiceDeps {
  shards: Pick<MysqlShards, 'shards' | 'shard'>;
  publisher: Publisher;
  catalog?: ProjectCatalog;
  /** The event schema version to write now (readers first: docs/events.md); version 1 when not given. */
  schemaVersions?: EventSchemaVersions;
  /** Reads the publication state of committed events (for idempotent replays); outbox by default. */
  publicationStates?: (db: Knex, eventIds: string[]) => Promise<PublicationOutcome[]>;
}

/** Thrown inside the transaction to roll it back when the idempotency key was used before. */
class KeyAlreadyUsed extends Error {}

export function fitnessService(deps: FitnessServiceDeps): FitnessService {
  const catalog = deps.catalog ?? defaultProjectCatalog;
  const publicationStates = deps.publicationStates ?? readOutboxStates;
  const schemaVersions = deps.schemaVersions ?? fixedSchemaVersions();
  const shardCount = deps.shards.shards.length;

  function shardOf(dataId: number): MysqlShard {
    const index = shardOfDataId(dataId);
    if (index >= shardCount) throw new NotFoundError('fitness result', dataId);
    return deps.shards.shard(index);
  }

  async function commit(shard: MysqlShard, work: (trx: Knex.Transaction) => Promise<Decision>): Promise<FitnessWriteOutcome> {
    try {
      const { result, publications } = await deps.publisher.commit(shard.db, async (trx) => {
        const d = await work(trx);
        return { result: d.state, events: [d.event] };
      });
      return { result, publication: publications[0]!, replayed: false };
    } catch (err) {
      if (err instanceof KeyAlreadyUsed) throw err;
      throw storeError(err, shard);
    }
  }

  async function replayFirst(shard: MysqlShard, key: OwnedKey, hash: string): Promise<FitnessWriteOutcome> {
    const first = await readIdempotencyKey(shard.db, key).catch((e) => Promise.reject(storeError(e, shard)));
    if (!first) throw new TidemarkError('STORE_UNAVAILABLE', 'the idempotency key is being written; retry', { retriable: true });
    if (first.requestHash !== hash)
      throw new TidemarkError('IDEMPOTENCY_CONFLICT', 'idempotencyKey was already used for a different result', {
        details: { dataId: String(first.dataId) },
      });
    const result = deserialise(first.response);
    const [publication] = await publicationStates(shard.db, [fitnessEventId(result.dataId, result.version)]).catch((e) =>
      Promise.reject(storeError(e, shard)),
    );
    return { result, publication: publication!, replayed: true };
  }

  return {
    async record(input, actor) {
      const { scope, changedBy } = writeAccess(actor);
      const cmd = validateRecord({ ...input, kind: 'record' }, catalog);
      requireWritable(scope, cmd);
      const key: OwnedKey | undefined = cmd.idempotencyKey ? { owner: changedBy, key: cmd.idempotencyKey } : undefined;
      const shard = deps.shards.shard(shardForUser(cmd.userId, shardCount));
      // Hashed only when a key asks for it: a SHA-256 per write was visible in the write path's profile.
      const hash = key ? requestHash(cmd) : '';
      try {
        const { insertReturning } = await mysqlServerFeatures(shard.db).catch((e) => Promise.reject(storeError(e, shard)));
        return await commit(shard, async (trx) => {
          const { sequence, now } = await allocateLocalSequence(trx, insertReturning);
          const dataId = composeDataId(sequence, shard.index);
          const d = decideRecord(cmd, {
            catalog,
            now,
            dataId,
            shard: shard.index,
            changedBy,
            schemaVersion: schemaVersions.toWrite('fitness'),
          });
          if (key && !(await claimIdempotencyKey(trx, key, { requestHash: hash, dataId, response: serialise(d.state) }, now)))
            throw new KeyAlreadyUsed();
          await insertResult(trx, d.state);
          return d;
        });
      } catch (err) {
        if (err instanceof KeyAlreadyUsed) return replayFirst(shard, key!, hash);
        throw err;
      }
    },

    async correct(input, actor) {
      const { scope, changedBy } = writeAccess(actor);
      const cmd: CorrectFitnessResult = { ...input, kind: 'correct', expectedVersion: parseExpectedVersion(input.expectedVersion) };
      const shard = shardOf(cmd.dataId);
      return commit(shard, async (trx) => {
        const now = await shardNow(trx);
        const current = visible(scope, await selectResultForUpdate(trx, cmd.dataId), cmd.dataId);
        const d = decideCorrection(current, cmd, { catalog, now, changedBy, schemaVersion: schemaVersions.toWrite('fitness') });
        // A move into a school outside the scope is refused (FORBIDDEN; the rollback releases the lock).
        requireWritable(scope, d.state);
        await updateResult(trx, d.state, current!.version);
        return d;
      });
    },

    async delete(input, actor) {
      const { scope, changedBy } = writeAccess(actor);
      const cmd: DeleteFitnessResult = { ...input, kind: 'delete', expectedVersion: parseExpectedVersion(input.expectedVersion) };
      const shard = shardOf(cmd.dataId);
      return commit(shard, async (trx) => {
        const now = await shardNow(trx);
        const current = visible(scope, await selectResultForUpdate(trx, cmd.dataId), cmd.dataId);
        const d = decideDeletion(current, cmd, { now, changedBy, schemaVersion: schemaVersions.toWrite('fitness') });
        await deleteResult(trx, d.state, current!);
        return d;
      });
    },

    async get(dataId) {
      const shard = shardOf(dataId);
      return readResult(shard.db, dataId).catch((e) => Promise.reject(storeError(e, shard)));
    },
  };
}
