// The outbox relay's failure handling on real MariaDB, PostgreSQL and Kafka. Outage and poison are
// told apart: a broker that cannot be reached spends no attempt (the rows go back with their count
// unchanged and the circuit opens), while a record the broker refuses (larger than the topic's
// max.message.bytes) is retried with bounded exponential backoff on the database clock, parked at its
// attempt limit, and delivered after the cause is fixed and an operator replays it. Kafka failures are
// real (a producer pointed at a closed port, or a record the broker refuses), never a stubbed client.
import type { Knex } from 'knex';
import { kafkaCircuit } from '../../infra/kafka/kafkaCircuit';
import { waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { useRelayHarness } from '../../../test/support/relayHarness';
import { cleanupSent, refreshOutboxGauges } from './maintenance';
import { outboxOperator, parkedEventPages } from '../../publication/outbox/operator';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { systemClock } from '../../shared/clock';

jest.setTimeout(60000);

/** Larger than the broker's default max.message.bytes (1 MiB): the broker refuses this record itself. */
const TOO_LARGE = 'x'.repeat(1_200_000);

async function makePoison(db: Knex, eventId: string): Promise<void> {
  await db('outbox_events').where({ event_id: eventId }).update({ message_value: TOO_LARGE });
}

describe('outbox relay retries, parking and retention (MariaDB, PostgreSQL, Kafka)', () => {
  const h = useRelayHarness();

  /** Sets the topic's record limit (raising it is the operator's fix for records that were too large). */
  async function topicRecordLimit(bytes: number): Promise<void> {
    const admin = h.env.resources.kafka.admin();
    await admin.connect();
    try {
      await admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: 2, name: h.topic, configEntries: [{ name: 'max.message.bytes', value: String(bytes) }] }],
      });
    } finally {
      await admin.disconnect();
    }
  }
  async function topicEnd(): Promise<number> {
    const admin = h.env.resources.kafka.admin();
    await admin.connect();
    try {
      return (await admin.fetchTopicOffsets(h.topic)).reduce((n, p) => n + Number(p.high), 0);
    } finally {
      await admin.disconnect();
    }
  }

  it('an outage spends no attempt: the rows go back FAILED with their count unchanged, and the circuit opens', async () => {
    await seedOutbox(h.mysql.db, h.topic, 3);
    const circuit = kafkaCircuit({
      probe: async () => Promise.reject(new Error('still down')),
      backoff: { delayMs: () => 60000 },
      logger: silentLogger,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await waitFor(
          async () => {
            const x = await h.once(h.mysql, h.down, { circuit });
            return x.claimed > 0 && x;
          },
          { what: `outage pass ${i + 1}` },
        );
        expect(r).toMatchObject({ claimed: 3, sent: 0, failed: 0, gaveUp: 0, released: 3, outage: true });
        expect(circuit.state).toBe('open');
        expect((await h.statuses(h.mysql.db)).map((x) => [x.status, x.attempts])).toEqual(Array(3).fill(['FAILED', 0]));
      }
      const codes = (await h.mysql.db('outbox_events').pluck('last_error_code')) as string[];
      // A closed port: connection refused until the client gives up, or our publish timeout first.
      for (const c of codes) expect(['PUBLISH_TIMEOUT', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSConnectionError']).toContain(c);
      expect(await h.total(h.metrics.failed)).toBe(0);
      expect(await h.total(h.metrics.parked)).toBe(0);
    } finally {
      await circuit.stop();
    }
    // Once the broker answers, every row is delivered.
    expect(
      await waitFor(
        async () => {
          const x = await h.once(h.mysql, h.good);
          return x.claimed > 0 && x;
        },
        { what: 'a delivered pass' },
      ),
    ).toMatchObject({ claimed: 3, sent: 3 });
  });

  it('schedules retries of a refused record with bounded exponential backoff on the database clock', async () => {
    const [poison] = await seedOutbox(h.mysql.db, h.topic, 1);
    await makePoison(h.mysql.db, poison!.eventId);
    const p = h.policy({ baseMs: 200, maxMs: 800, maxAttempts: 10 });
    const seen: number[] = [];
    const dbNow = async () => ((await h.mysql.db.raw('SELECT CAST(NOW(3) AS CHAR) AS t')) as [{ t: string }[]])[0][0]!.t;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await waitFor(() => h.table(h.mysql).hasDue(), { what: `attempt ${attempt} to be due` });
      // The delay (random() = 1: exactly the ceiling) is added to the database's now at the update,
      // which lies between these two readings: exact bounds, whatever the machine's speed.
      const before = await dbNow();
      const r = await h.once(h.mysql, h.good, { policy: p });
      const after = await dbNow();
      expect(r).toMatchObject({ claimed: 1, failed: 1, sent: 0, released: 0, outage: false });
      const [[row]] = (await h.mysql.db.raw(
        `SELECT attempts, status, last_error_code,
                TIMESTAMPDIFF(MICROSECOND, CAST(? AS DATETIME(3)), next_retry_at) / 1000 AS from_before,
                TIMESTAMPDIFF(MICROSECOND, CAST(? AS DATETIME(3)), next_retry_at) / 1000 AS from_after
           FROM outbox_events`,
        [before, after],
      )) as [{ attempts: number; status: string; last_error_code: string; from_before: string; from_after: string }[]];
      expect(row).toMatchObject({ attempts: attempt, status: 'FAILED', last_error_code: 'MESSAGE_TOO_LARGE' });
      const ceiling = Math.min(800, 200 * 2 ** (attempt - 1));
      expect(Number(row!.from_before)).toBeGreaterThanOrEqual(ceiling);
      expect(Number(row!.from_after)).toBeLessThanOrEqual(ceiling);
      seen.push(ceiling);
    }
    expect(seen).toEqual([200, 400, 800, 800, 800]);
    expect(await h.total(h.metrics.failed)).toBe(5);
  });

  it('parks a refused record at its attempt limit while the rest flow; after the fix an operator replay delivers it', async () => {
    const events = await seedOutbox(h.pg.db, h.topic, 3);
    const poison = events[1]!;
    await makePoison(h.pg.db, poison.eventId);
    const p = h.policy({ baseMs: 20, maxMs: 40, maxAttempts: 2 });
    expect(await h.once(h.pg, h.good, { policy: p })).toMatchObject({ claimed: 3, sent: 2, failed: 1 });
    await waitFor(async () => (await h.once(h.pg, h.good, { policy: p })).claimed > 0, { what: 'attempt 2' });
    const row = (await h.pg.db('outbox_events').where({ event_id: poison.eventId }).first()) as Record<string, unknown>;
    expect(row).toMatchObject({ status: 'PARKED', attempts: 2, claim_token: null, last_error_code: 'MESSAGE_TOO_LARGE' });
    expect(String(row.last_error_summary)).not.toContain('{');
    expect(await h.total(h.metrics.parked)).toBe(1);
    expect((await h.statuses(h.pg.db)).filter((r) => r.status === 'SENT')).toHaveLength(2);

    // Parked rows are never claimed again without an operator.
    expect((await h.once(h.pg, h.good)).claimed).toBe(0);
    const op = outboxOperator([h.mysql, h.pg], { metrics: h.metrics, stateChanges: discardStateChanges, clock: systemClock });
    expect(await parkedEventPages([h.mysql, h.pg]).listParkedPage({ domain: 'fitness' }, 10)).toEqual([
      expect.objectContaining({ eventId: poison.eventId, version: 1, store: 'postgres', attempts: 2 }),
    ]);
    await topicRecordLimit(4 * 1024 * 1024);
    try {
      expect(await op.replayParked({ eventIds: [poison.eventId] }, 10)).toEqual([
        expect.objectContaining({ eventId: poison.eventId, version: 1 }),
      ]);
      expect(await h.pg.db('outbox_events').where({ event_id: poison.eventId }).first('status', 'attempts', 'replay_count')).toMatchObject({
        status: 'NEW',
        attempts: 0,
        replay_count: 1,
      });
      expect(await op.replayParked({ eventIds: [poison.eventId] }, 10)).toEqual([]);
      const end = await topicEnd();
      expect(await h.once(h.pg, h.good)).toMatchObject({ sent: 1 });
      expect(await topicEnd()).toBe(end + 1); // the broker took it (1.2 MB: past a test consumer's fetch size)
      expect(await h.pg.db('outbox_events').where({ event_id: poison.eventId }).first('status', 'version')).toMatchObject({
        status: 'SENT',
        version: 1,
      });
    } finally {
      await topicRecordLimit(1048588); // the broker's default again, for the other tests of this topic
    }
  });

  it('isolates a record the broker refuses so it fails alone and the rest of its batch is delivered', async () => {
    const events = await seedOutbox(h.mysql.db, h.topic, 3);
    const poison = events[1]!;
    // Same key as its neighbour, so both sit in one partition of the same request (the idempotent
    // producer's sequence for that partition must survive the rejection).
    await h.mysql
      .db('outbox_events')
      .where({ event_id: poison.eventId })
      .update({ message_value: TOO_LARGE, message_key: events[0]!.aggregateId });
    const r = await h.once(h.mysql, h.good, { policy: h.policy({ maxAttempts: 1 }) });
    expect(r).toMatchObject({ claimed: 3, sent: 2, gaveUp: 1 });
    const rows = await h.mysql.db('outbox_events').select('event_id', 'status', 'last_error_code');
    expect(rows.find((x: { event_id: string }) => x.event_id === poison.eventId)).toMatchObject({ status: 'PARKED' });
    expect(rows.filter((x: { status: string }) => x.status === 'SENT')).toHaveLength(2);
  });

  it('gives up an old record that keeps failing, even in an outage, with its own reason code', async () => {
    await seedOutbox(h.mysql.db, h.topic, 1);
    await h.mysql.db('outbox_events').update({ created_at: h.mysql.db.raw('DATE_SUB(NOW(3), INTERVAL 2 HOUR)') });
    const r = await h.once(h.mysql, h.down, { giveUpAgeMs: 3600_000 });
    expect(r).toMatchObject({ claimed: 1, gaveUp: 1, released: 0 });
    expect(await h.mysql.db('outbox_events').first('status', 'last_error_code')).toMatchObject({
      status: 'PARKED',
      last_error_code: 'RELAY_GIVE_UP_AGE',
    });
  });

  it('cleans up only SENT rows older than the retention, in bounded batches, on both engines', async () => {
    for (const store of [h.mysql, h.pg]) {
      await seedOutbox(store.db, h.topic, 8);
      const ids = ((await store.db('outbox_events').select('id').orderBy('id')) as { id: number }[]).map((r) => r.id);
      const old = store.kind === 'mysql' ? store.db.raw('DATE_SUB(NOW(3), INTERVAL 2 HOUR)') : store.db.raw("now() - interval '2 hours'");
      await store.db('outbox_events').whereIn('id', ids.slice(0, 5)).update({ status: 'SENT', sent_at: old });
      await store.db('outbox_events').whereIn('id', ids.slice(5, 6)).update({ status: 'SENT', sent_at: store.db.fn.now() });
      await store.db('outbox_events').whereIn('id', ids.slice(6, 7)).update({ status: 'PARKED', parked_at: old });
      expect(await cleanupSent({ store, metrics: h.metrics, retentionMs: 3600_000, cleanupBatchSize: 2 })).toBe(5);
      expect(((await store.db('outbox_events').select('status').orderBy('id')) as { status: string }[]).map((r) => r.status)).toEqual([
        'SENT',
        'PARKED',
        'NEW',
      ]);
    }
    expect(await h.total(h.metrics.cleanedUp)).toBe(10);
  });

  it('reports rows per status and the age of the oldest unsent row', async () => {
    await seedOutbox(h.mysql.db, h.topic, 3);
    await h.mysql.db('outbox_events').update({ created_at: h.mysql.db.raw('DATE_SUB(NOW(3), INTERVAL 90 SECOND)') });
    await h.mysql.db('outbox_events').limit(1).update({ status: 'PARKED' });
    await refreshOutboxGauges({ store: h.mysql, metrics: h.metrics });
    const counts = Object.fromEntries(
      (await h.metrics.events.get()).values.filter((v) => v.labels.store === 'mysql').map((v) => [v.labels.status, v.value]),
    );
    expect(counts).toEqual({ NEW: 2, PROCESSING: 0, FAILED: 0, PARKED: 1 });
    expect(await h.total(h.metrics.oldestUnsentSeconds)).toBeGreaterThanOrEqual(90);

    await seedOutbox(h.pg.db, h.topic, 2);
    await h.pg.db('outbox_events').update({ created_at: h.pg.db.raw("now() - interval '45 seconds'") });
    await refreshOutboxGauges({ store: h.pg, metrics: h.metrics });
    const pgAge = (await h.metrics.oldestUnsentSeconds.get()).values.find((v) => v.labels.store === 'postgres')!.value;
    expect(pgAge).toBeGreaterThanOrEqual(45);
    expect(pgAge).toBeLessThan(90);
  });
});
