// The fitness source's erasure ('mysql' on the certificate): a student's results on every MySQL shard.
// A result lives on the shard its dataId names, but a student's results spread over shards (a student
// can move between shard layouts, a repair can rewrite), so every step asks every shard.
//
//   collect  the dataIds of the student's live results, deletion-log entries, idempotency keys, and of
//            any outbox_events / event_publications row whose event data names the student (a parked
//            or dead-lettered event whose result row is already gone)
//   erase    per shard, one transaction: those dataIds' rows of fitness_results, the deletion log,
//            the idempotency keys (their stored responses), and the publication rows in every state
//            (fitness may run either strategy, and rows of the other may remain from a switch)
//   verify   a read-only count per '<shard database>.<table>' of rows of the job's ids, or naming the
//            student and created before job.startedAt (a returning student's new results are not the
//            request's business)
// Nothing personal reaches an error: shard failures become storeError (the shard's index only).
import type { MysqlShard, MysqlShards } from '../../../infra/mysql/fromMysql';
import { deleteAggregateRows as deleteOutboxRows } from '../../../publication/outbox/sql/deleteAggregateRows';
import { countOutboxAggregateRows, outboxAggregatesNaming } from '../../../publication/outbox/sql/findAggregateRows';
import { deleteAggregateRows as deletePublicationRows } from '../../../publication/kafkaFirst/sql/deleteAggregateRows';
import { countPublicationAggregateRows, publicationAggregatesNaming } from '../../../publication/kafkaFirst/sql/findAggregateRows';
import type { Clock } from '../../../shared/clock';
import { ValidationError } from '../../../shared/errors';
import type { ErasureJob, SourceErasure, StoreSearch, StoreStepResult } from '../../contract/erasure';
import { MAX_ID } from '../decide';
import { storeError } from '../storeError';
import { deleteResultRows } from '../store/deleteStudentRows';
import { countStudentRows, studentDataIds } from '../store/findStudentRows';

const STORE = 'mysql';
const DOMAIN = 'fitness';
const SUBJECT_FIELD = 'userId';
const USER_ID = /^[1-9][0-9]{0,9}$/;
const DATA_ID = /^[1-9][0-9]{0,15}$/;
const SUBJECT_RULE = `a student's userId is an integer between 1 and ${MAX_ID}`;

function userIdOf(subjectId: string): number | undefined {
  const n = USER_ID.test(subjectId) ? Number(subjectId) : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_ID ? n : undefined;
}

/** The job's aggregate ids that can be fitness dataIds (anything else cannot be on a shard). */
function dataIdsOf(job: ErasureJob): number[] {
  return job.aggregateIds.filter((id) => DATA_ID.test(id)).map(Number);
}

async function onShard<T>(shard: MysqlShard, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw storeError(err, shard);
  }
}

async function collectOn(shard: MysqlShard, userId: number): Promise<string[]> {
  const db = shard.db;
  const value = String(userId);
  const ids = (await studentDataIds(db, userId)).map(String);
  ids.push(...(await outboxAggregatesNaming(db, DOMAIN, SUBJECT_FIELD, value)));
  ids.push(...(await publicationAggregatesNaming(db, DOMAIN, SUBJECT_FIELD, value)));
  return ids;
}

async function eraseOn(shard: MysqlShard, job: ErasureJob): Promise<number> {
  const ids = dataIdsOf(job);
  // The aggregate ids as the publication rows spell them: every id of the job (domain-scoped).
  const aggregateIds = job.aggregateIds;
  return shard.db.transaction(async (trx) => {
    let n = await deleteResultRows(trx, ids);
    n += await deleteOutboxRows(trx, DOMAIN, aggregateIds);
    n += await deletePublicationRows(trx, DOMAIN, aggregateIds);
    return n;
  });
}

async function verifyOn(shard: MysqlShard, job: ErasureJob, userId: number): Promise<Record<string, number>> {
  const db = shard.db;
  const named = { field: SUBJECT_FIELD, value: String(userId), createdBefore: job.startedAt };
  const found = await countStudentRows(db, dataIdsOf(job), userId, job.startedAt);
  found.outbox_events = await countOutboxAggregateRows(db, DOMAIN, job.aggregateIds, named);
  found.event_publications = await countPublicationAggregateRows(db, DOMAIN, job.aggregateIds, named);
  return found;
}

export function fitnessSourceErasure(d: { shards: Pick<MysqlShards, 'shards'>; clock: Clock }): SourceErasure {
  const subject = (subjectId: string): number => {
    const userId = userIdOf(subjectId);
    // The runner checks subjects first (checkSubject); this only guards a direct call (no value in the message).
    if (userId === undefined) throw new ValidationError('userId', SUBJECT_RULE);
    return userId;
  };
  return {
    store: STORE,
    checkSubject: (subjectId) => (userIdOf(subjectId) === undefined ? SUBJECT_RULE : undefined),
    async collect(subjectId) {
      const userId = subject(subjectId);
      const ids = new Set<string>();
      for (const shard of d.shards.shards) for (const id of await onShard(shard, () => collectOn(shard, userId))) ids.add(id);
      return [...ids].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    },
    async erase(job): Promise<StoreStepResult> {
      let affected = 0;
      if (job.aggregateIds.length > 0) for (const shard of d.shards.shards) affected += await onShard(shard, () => eraseOn(shard, job));
      return { affected, done: true };
    },
    async verify(job): Promise<StoreSearch> {
      const userId = subject(job.subjectId);
      const searched: string[] = [];
      let found = 0;
      for (const shard of d.shards.shards) {
        const counts = await onShard(shard, () => verifyOn(shard, job, userId));
        for (const [table, n] of Object.entries(counts)) {
          searched.push(`${shard.database}.${table}`);
          found += n;
        }
      }
      return { store: STORE, searched, searchedAt: d.clock.now(), found };
    },
  };
}
