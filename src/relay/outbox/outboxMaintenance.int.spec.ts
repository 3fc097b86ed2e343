// The outbox housekeeping beside the relay (maintenance.ts) on real MariaDB and PostgreSQL: SENT rows
// past retention are deleted in bounded batches and nothing else is, and the gauges report rows per
// status and the age of the oldest unsent row by each database's clock.
import { seedOutbox } from '../../../test/support/outboxSeed';
import { useRelayHarness } from '../../../test/support/relayHarness';
import { refreshOutboxGauges } from '../../publication/outbox/outboxGauges';
import { cleanupSent } from './maintenance';

jest.setTimeout(60000);

describe('outbox retention and gauges (MariaDB, PostgreSQL)', () => {
  const h = useRelayHarness();

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
