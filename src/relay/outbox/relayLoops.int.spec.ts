// The relay loop on real MariaDB, PostgreSQL and Kafka: an idle store is only looked at (one cheap
// statement per poll, no claim transaction), and helper loops sleep until a full batch shows a backlog,
// then drain it together with the first loop without publishing anything twice.
import { waitFor } from '../../shared/lifecycle';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { useRelayHarness } from '../../../test/support/relayHarness';
import { backlogSignal } from '../backlogSignal';
import type { EventSink } from '../kafkaSink';
import { hasDueRows } from '../../publication/outbox/sql/hasDueRows';

describe('outbox relay loops (MariaDB, PostgreSQL, Kafka)', () => {
  const h = useRelayHarness();

  it('says whether a claim would find anything: NEW rows, FAILED rows due, expired leases; nothing else', async () => {
    for (const db of [h.mysql.db, h.pg.db]) {
      expect(await hasDueRows(db)).toBe(false);
      await seedOutbox(db, h.topic, 3);
      expect(await hasDueRows(db)).toBe(true);
      const future = new Date(Date.now() + 3600_000);
      const past = new Date(Date.now() - 3600_000);
      await db('outbox_events').update({ status: 'SENT', sent_at: new Date() });
      expect(await hasDueRows(db)).toBe(false);
      await db('outbox_events').update({ status: 'FAILED', next_retry_at: future });
      expect(await hasDueRows(db)).toBe(false);
      await db('outbox_events').update({ status: 'PROCESSING', lease_expires_at: future });
      expect(await hasDueRows(db)).toBe(false);
      await db('outbox_events').update({ status: 'PROCESSING', lease_expires_at: past });
      expect(await hasDueRows(db)).toBe(true);
      await db('outbox_events').update({ status: 'FAILED', next_retry_at: past, lease_expires_at: null });
      expect(await hasDueRows(db)).toBe(true);
      await db('outbox_events').update({ status: 'PARKED' });
      expect(await hasDueRows(db)).toBe(false);
      await db('outbox_events').delete();
    }
  });

  it('a helper loop sleeps while the store is idle and drains a backlog with the first loop, each row once', async () => {
    const claims: { loop: string; size: number }[] = [];
    const published = new Map<number, number>();
    const recording = (loop: string): EventSink => ({
      async publish(batch) {
        claims.push({ loop, size: batch.length });
        for (const e of batch) published.set(e.id, (published.get(e.id) ?? 0) + 1);
        return h.good.publish(batch);
      },
      close: async () => undefined,
    });
    const backlog = backlogSignal();
    const first = h.loop(h.mysql, recording('first'), { batchSize: 20 }, { backlog });
    const helper = h.loop(h.mysql, recording('helper'), { batchSize: 20 }, { backlog, helper: true });
    try {
      // Idle, then one small batch: the first loop takes it; the helper is not woken.
      await seedOutbox(h.mysql.db, h.topic, 5);
      await waitFor(async () => (await h.statuses(h.mysql.db)).every((r) => r.status === 'SENT'), { timeoutMs: 10000, intervalMs: 20 });
      expect(claims.map((c) => c.loop)).toEqual(['first']);

      // A backlog: full claims wake the helper, and both drain it.
      await seedOutbox(h.mysql.db, h.topic, 400, { firstSequence: 1000 });
      await waitFor(async () => (await h.statuses(h.mysql.db)).every((r) => r.status === 'SENT'), { timeoutMs: 30000, intervalMs: 20 });
      expect(published.size).toBe(405);
      expect([...published.values()].every((n) => n === 1)).toBe(true);
      expect(claims.some((c) => c.loop === 'helper')).toBe(true);
    } finally {
      await Promise.all([first.stop(), helper.stop()]);
    }
  });
});
