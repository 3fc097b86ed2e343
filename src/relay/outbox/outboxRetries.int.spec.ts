// The outbox relay's failure handling on real MariaDB, PostgreSQL and Kafka: bounded exponential
// backoff on the database clock, parking at the attempt limit and operator replay, isolation of a
// record the broker refuses, retention cleanup and the gauges. Kafka failures are real (a producer
// pointed at a closed port, or a record the broker refuses), never a stubbed client.
import { waitFor } from '../../shared/lifecycle';
import { readTopic } from '../../../test/support/readTopic';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { useOutboxHarness } from '../../../test/support/outboxHarness';
import { cleanupSent, refreshOutboxGauges } from './maintenance';
import { outboxOperator } from './operator';
import { relayOnce } from './relay';

jest.setTimeout(60000);

describe('outbox relay retries, parking and retention (MariaDB, PostgreSQL, Kafka)', () => {
  const h = useOutboxHarness();

  it('schedules retries with bounded exponential backoff on the database clock while Kafka is unreachable', async () => {
    await seedOutbox(h.mysql.db, h.topic, 1);
    const p = h.policy({ baseMs: 200, maxMs: 800, maxAttempts: 10 });
    const seen: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const r = await waitFor(async () => {
        const x = await relayOnce(h.options(h.mysql, h.down, { policy: p }));
        return x.claimed > 0 && x;
      }, { what: `attempt ${attempt}` });
      expect(r).toMatchObject({ claimed: 1, failed: 1, sent: 0 });
      const [[row]] = (await h.mysql.db.raw("SELECT attempts, status, last_error_code, TIMESTAMPDIFF(MICROSECOND, NOW(3), next_retry_at) / 1000 AS remaining_ms FROM outbox_events")) as [
        { attempts: number; status: string; last_error_code: string; remaining_ms: string }[],
      ];
      expect(row).toMatchObject({ attempts: attempt, status: 'FAILED' });
      expect(row!.last_error_code).toBeTruthy();
      const ceiling = Math.min(800, 200 * 2 ** (attempt - 1));
      const remaining = Number(row!.remaining_ms);
      expect(remaining).toBeLessThanOrEqual(ceiling);
      expect(remaining).toBeGreaterThan(ceiling / 2);
      seen.push(ceiling);
    }
    expect(seen).toEqual([200, 400, 800, 800, 800]);
    expect(await h.total(h.metrics.failed)).toBe(5);
  });

  it('parks an event at its attempt limit; an operator replay returns it to NEW with its original version and it is delivered', async () => {
    const [event] = await seedOutbox(h.pg.db, h.topic, 1);
    const p = h.policy({ baseMs: 20, maxMs: 40, maxAttempts: 2 });
    for (let i = 0; i < 2; i++) await waitFor(async () => (await relayOnce(h.options(h.pg, h.down, { policy: p }))).claimed > 0, { what: `attempt ${i + 1}` });
    const [row] = (await h.pg.db('outbox_events').select('*')) as Record<string, unknown>[];
    expect(row).toMatchObject({ status: 'PARKED', attempts: 2, claim_token: null });
    expect(String(row!.last_error_summary)).not.toContain('{');
    expect(await h.total(h.metrics.parked)).toBe(1);

    // Parked rows are never claimed again without an operator.
    expect((await relayOnce(h.options(h.pg, h.good))).claimed).toBe(0);
    const op = outboxOperator([h.mysql, h.pg], { metrics: h.metrics });
    expect(await op.listParked({ domain: 'fitness' }, 10)).toEqual([expect.objectContaining({ eventId: event!.eventId, version: 1, store: 'postgres', attempts: 2 })]);
    expect(await op.replayParked({ eventIds: [event!.eventId] }, 10)).toEqual([expect.objectContaining({ eventId: event!.eventId, version: 1 })]);
    expect((await h.pg.db('outbox_events').first('status', 'attempts', 'replay_count'))).toMatchObject({ status: 'NEW', attempts: 0, replay_count: 1 });
    expect(await op.replayParked({ eventIds: [event!.eventId] }, 10)).toEqual([]);

    expect(await relayOnce(h.options(h.pg, h.good))).toMatchObject({ sent: 1 });
    const msgs = await readTopic(h.env.resources.kafka, h.topic, (m) => m.some((x) => x.envelope.eventId === event!.eventId));
    expect(msgs.find((x) => x.envelope.eventId === event!.eventId)!.envelope).toMatchObject({ version: 1, aggregateId: event!.aggregateId });
  });

  it('isolates a record the broker refuses so it fails alone and the rest of its batch is delivered', async () => {
    const events = await seedOutbox(h.mysql.db, h.topic, 3);
    const poison = events[1]!;
    // Same key as its neighbour, so both sit in one partition of the same request (the idempotent
    // producer's sequence for that partition must survive the rejection).
    await h.mysql.db('outbox_events').where({ event_id: poison.eventId }).update({ message_value: 'x'.repeat(1_200_000), message_key: events[0]!.aggregateId });
    const r = await relayOnce(h.options(h.mysql, h.good, { policy: h.policy({ maxAttempts: 1 }) }));
    expect(r).toMatchObject({ claimed: 3, sent: 2, parked: 1 });
    const rows = await h.mysql.db('outbox_events').select('event_id', 'status', 'last_error_code');
    expect(rows.find((x: { event_id: string }) => x.event_id === poison.eventId)).toMatchObject({ status: 'PARKED' });
    expect(rows.filter((x: { status: string }) => x.status === 'SENT')).toHaveLength(2);
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
      expect(((await store.db('outbox_events').select('status').orderBy('id')) as { status: string }[]).map((r) => r.status)).toEqual(['SENT', 'PARKED', 'NEW']);
    }
    expect(await h.total(h.metrics.cleanedUp)).toBe(10);
  });

  it('reports rows per status and the age of the oldest unsent row', async () => {
    await seedOutbox(h.mysql.db, h.topic, 3);
    await h.mysql.db('outbox_events').update({ created_at: h.mysql.db.raw('DATE_SUB(NOW(3), INTERVAL 90 SECOND)') });
    await h.mysql.db('outbox_events').limit(1).update({ status: 'PARKED' });
    await refreshOutboxGauges({ store: h.mysql, metrics: h.metrics });
    const counts = Object.fromEntries((await h.metrics.events.get()).values.filter((v) => v.labels.store === 'mysql').map((v) => [v.labels.status, v.value]));
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
