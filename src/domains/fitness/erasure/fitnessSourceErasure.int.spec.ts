// The fitness source erasure on the real sharded MariaDB (two shards on two servers): a student with
// results on both shards (corrected, deleted, idempotency-keyed, outbox rows in every state, a parked
// event whose result row is gone, a dead-lettered publication), another student, and the same student
// returning after the request. Also the deletion log's retention batch.
import { randomUUID } from 'node:crypto';
import { useFitnessHarness, teacherInput } from '../../../../test/support/fitnessHarness';
import { systemClock } from '../../../shared/clock';
import type { ErasureJob } from '../../contract/erasure';
import { deleteExpiredDeletionsBatch } from '../store/deleteExpiredDeletions';
import { shardForUser } from '../sharding';
import { fitnessSourceErasure } from './fitnessSourceErasure';

const STUDENT = 9101;
const OTHER = 9102;

describe('fitnessSourceErasure (sharded MariaDB)', () => {
  const h = useFitnessHarness();
  const count = async (shard: number, table: string, where: Record<string, unknown>) =>
    Number(((await h.shardDb(shard)(table).where(where).count({ n: '*' })) as { n: number }[])[0]!.n);

  it('collects exactly the student, erases idempotently, and verifies zero; others and a returning student stay', async () => {
    const erasure = fitnessSourceErasure({ shards: h.env.resources.mysql, clock: systemClock });
    expect(erasure.store).toBe('mysql');
    expect(erasure.checkSubject(String(STUDENT))).toBeUndefined();
    for (const bad of ['0', '-3', 'abc', '2147483648', '1.5', '']) expect(erasure.checkSubject(bad)).toEqual(expect.any(String));

    const student = { ...teacherInput, userId: STUDENT };
    const corrected = (await h.fitness.record(student)).result.dataId;
    await h.fitness.correct({ dataId: corrected, expectedVersion: 1, result: '2.31', unit: 'm' });
    const deleted = (await h.fitness.record(student)).result.dataId;
    await h.fitness.delete({ dataId: deleted, expectedVersion: 1 });
    const keyed = (await h.fitness.record({ ...student, idempotencyKey: 'erase-me-1' })).result.dataId;
    const home = corrected % 100;
    const away = 1 - home;
    expect(shardForUser(STUDENT, 2)).toBe(home);
    // Outbox rows of the home shard in every state.
    const states = ['SENT', 'FAILED', 'PARKED', 'PROCESSING', 'NEW'];
    const rows = (await h
      .shardDb(home)('outbox_events')
      .whereIn('aggregate_id', [corrected, deleted, keyed].map(String))
      .orderBy('id')) as {
      id: number;
    }[];
    expect(rows).toHaveLength(5);
    for (const [i, r] of rows.entries()) await h.shardDb(home)('outbox_events').where({ id: r.id }).update({ status: states[i] });
    const sample = (await h.shardDb(home)('outbox_events').where({ id: rows[0]!.id }).first()) as Record<string, unknown>;
    // A dead-lettered publication of a home result (fitness switched strategies once).
    await h
      .shardDb(home)('event_publications')
      .insert({
        event_id: `pub-${randomUUID()}`,
        domain: 'fitness',
        aggregate_id: String(corrected),
        version: 1,
        topic: sample.topic,
        message_key: sample.message_key,
        message_value: sample.message_value,
        headers: '{}',
        status: 'DEAD_LETTER',
        source: 'RELAY',
        direct_attempts: 1,
        relay_attempts: 3,
        replay_count: 0,
        next_attempt_at: new Date(),
      });
    // On the other shard: a result of the student from an older layout, and a parked event whose row is gone.
    const awayRow = 777700 + away;
    const {
      data_id: _d,
      changed_by: _c,
      ...resultCols
    } = (await h.shardDb(home)('fitness_results').where({ data_id: keyed }).first()) as Record<string, unknown>;
    await h
      .shardDb(away)('fitness_results')
      .insert({ ...resultCols, data_id: awayRow });
    const gone = 888800 + away;
    const parked = JSON.parse(String(sample.message_value)) as { data: Record<string, unknown> };
    await h
      .shardDb(away)('outbox_events')
      .insert({
        ...sample,
        id: undefined,
        event_id: `gone-${randomUUID()}`,
        aggregate_id: String(gone),
        message_value: JSON.stringify({ ...parked, aggregateId: String(gone), data: { ...parked.data, dataId: gone } }),
        status: 'PARKED',
        due_at: undefined,
      });
    const other = (await h.fitness.record({ ...teacherInput, userId: OTHER })).result.dataId;

    const ids = await erasure.collect(String(STUDENT));
    expect(ids).toEqual([corrected, deleted, keyed, awayRow, gone].map(String).sort((a, b) => a.length - b.length || a.localeCompare(b)));
    expect(await erasure.collect(String(OTHER))).toEqual([String(other)]);

    const startedAt = new Date();
    const job: ErasureJob = {
      erasureId: randomUUID(),
      kind: 'student',
      mode: 'delete',
      subjectId: String(STUDENT),
      domain: 'fitness',
      aggregateIds: ids,
      subjectHash: 'h',
      startedAt,
    };
    // The student comes back after the request (the shard's clock is past startedAt by the time it writes).
    let returning = 0;
    for (;;) {
      returning = (await h.fitness.record({ ...student, result: '2.50' })).result.dataId;
      const row = (await h.shardDb(home)('fitness_results').where({ data_id: returning }).first()) as { created_at: Date };
      if (row.created_at > startedAt) break;
      await h.fitness.delete({ dataId: returning, expectedVersion: 1 });
      await h.shardDb(home)('fitness_result_deletions').where({ data_id: returning }).delete();
      await h
        .shardDb(home)('outbox_events')
        .where({ aggregate_id: String(returning) })
        .delete();
    }

    const before = await erasure.verify(job);
    expect(before.found).toBeGreaterThan(0);

    const t0 = Date.now();
    const first = await erasure.erase(job);
    const eraseMs = Date.now() - t0;
    expect(first).toMatchObject({ done: true });
    // 3 results/log rows + 1 away + 1 key, 5 + 1 outbox rows, 1 publication.
    expect(first.affected).toBe(12);
    expect(await erasure.erase(job)).toEqual({ affected: 0, done: true });

    const after = await erasure.verify(job);
    expect(after.found).toBe(0);
    expect(after.store).toBe('mysql');
    for (const s of h.env.resources.mysql.shards)
      for (const t of ['fitness_results', 'fitness_result_deletions', 'fitness_idempotency_keys', 'outbox_events', 'event_publications'])
        expect(after.searched).toContain(`${s.database}.${t}`);

    // The other student and the returning student's new result are untouched.
    expect(await count(other % 100, 'fitness_results', { data_id: other })).toBe(1);
    expect(await count(other % 100, 'outbox_events', { aggregate_id: String(other) })).toBe(1);
    expect(await count(home, 'fitness_results', { data_id: returning })).toBe(1);
    expect(await count(home, 'outbox_events', { aggregate_id: String(returning) })).toBe(1);
    expect(await erasure.collect(String(STUDENT))).toEqual([String(returning)]);
    console.log(`erase of ${ids.length} aggregates on 2 shards took ${eraseMs} ms`);
  });

  it('deletes the deletion log entries older than the retention, in bounded batches', async () => {
    const db = h.shardDb(0);
    const base = { detect_id: 1, user_id: 9200, project_id: 3, school_id: 7, grade: 5, result: '1.000', unit: 'm', version: 2 };
    const old = new Date(Date.now() - 10 * 86_400_000);
    const at = (d: Date) => ({ created_at: d, updated_at: d, deleted_at: d });
    await db('fitness_result_deletions').insert([
      { ...base, data_id: 990000, ...at(old) },
      { ...base, data_id: 990100, ...at(old) },
      { ...base, data_id: 990200, ...at(new Date()) },
    ]);
    const day = 86_400_000;
    expect(await deleteExpiredDeletionsBatch(db, 5 * day, 1)).toBe(1);
    expect(await deleteExpiredDeletionsBatch(db, 5 * day, 10)).toBe(1);
    expect(await deleteExpiredDeletionsBatch(db, 5 * day, 10)).toBe(0);
    expect(await count(0, 'fitness_result_deletions', { data_id: 990200 })).toBe(1);
  });
});
