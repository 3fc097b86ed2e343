// Retention cleanup on real PostgreSQL and MariaDB: only rows whose job is done and whose retention
// has passed are deleted (PUBLISHED fallback rows, old fitness idempotency keys), in bounded batches;
// rows still owed to Kafka, waiting for an operator, or young are never touched.
import type { Knex } from 'knex';
import { fitnessService } from '../../domains/fitness/service';
import { deleteExpiredKeysBatch } from '../../domains/fitness/store/deleteExpiredKeys';
import { fitnessOutboxPublisher } from '../../app/wiring/fitness';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { teacherInput } from '../../../test/support/fitnessHarness';
import { deletePublishedBatch } from '../../publication/kafkaFirst/sql/deletePublished';
import { runRetentionTask } from './retentionCleanup';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { TEST_SERVICE } from '../../../test/support/principals';

const HOUR = 3600_000;

function publicationRow(n: number, status: string, ageHours: number, domain = 'orders') {
  const at = new Date(Date.now() - ageHours * HOUR);
  return {
    event_id: `retention-${n}`,
    domain,
    aggregate_id: `a-${n}`,
    version: 1,
    topic: 't',
    message_key: `a-${n}`,
    message_value: '{}',
    headers: '{}',
    status,
    source: 'DIRECT_FALLBACK',
    direct_attempts: 3,
    relay_attempts: 0,
    replay_count: 0,
    next_attempt_at: at,
    created_at: at,
    published_at: status === 'PUBLISHED' ? at : null,
  };
}

describe('retention cleanup (PostgreSQL, MariaDB)', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(() => env?.cleanup());

  it('deletes only PUBLISHED fallback rows past their retention, batch by batch, on both engines', async () => {
    for (const db of [env.resources.pg, env.resources.mysql.shard(0).db] as Knex[]) {
      await db('event_publications').insert([
        ...[1, 2, 3, 4, 5].map((n) => publicationRow(n, 'PUBLISHED', 100)),
        publicationRow(6, 'PUBLISHED', 1), // young
        publicationRow(7, 'NOT_PUBLISHED', 100), // still owed to Kafka
        publicationRow(8, 'DEAD_LETTER', 100), // waiting for an operator
      ]);
      const deleted = await runRetentionTask((n) => deletePublishedBatch(db, 72 * HOUR, n), 2);
      expect(deleted).toBe(5);
      const left = (await db('event_publications').orderBy('event_id').pluck('event_id')) as string[];
      expect(left).toEqual(['retention-6', 'retention-7', 'retention-8']);
      await db('event_publications').delete();
    }
  });

  it('frees fitness idempotency keys after their retention: a retry inside it replays, after it is a new request', async () => {
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources, discardStateChanges) });
    const old = await fitness.record({ ...teacherInput, userId: 501, idempotencyKey: 'retention-old' }, TEST_SERVICE);
    const young = await fitness.record({ ...teacherInput, userId: 502, idempotencyKey: 'retention-young' }, TEST_SERVICE);
    const shardOld = env.resources.mysql.shard(old.result.shard).db;
    await shardOld('fitness_idempotency_keys')
      .where({ idempotency_key: 'retention-old' })
      .update({ created_at: new Date(Date.now() - 200 * HOUR) });

    let deleted = 0;
    for (const sh of env.resources.mysql.shards) deleted += await runRetentionTask((n) => deleteExpiredKeysBatch(sh.db, 168 * HOUR, n), 10);
    expect(deleted).toBe(1);

    const youngAgain = await fitness.record({ ...teacherInput, userId: 502, idempotencyKey: 'retention-young' }, TEST_SERVICE);
    expect(youngAgain).toMatchObject({ replayed: true, result: { dataId: young.result.dataId } });
    const oldAgain = await fitness.record({ ...teacherInput, userId: 501, idempotencyKey: 'retention-old' }, TEST_SERVICE);
    expect(oldAgain.replayed).toBe(false);
    expect(oldAgain.result.dataId).not.toBe(old.result.dataId);
  });
});
