// The outbox's one status index on real MariaDB and PostgreSQL: due_at follows every status change
// without any writer setting it, (status, due_at) is the only index besides event_id, the migration
// is reversible, and the gauges still report the oldest unsent row's age from it.
import type { Knex } from 'knex';
import { addOutboxDueAt, dropOutboxDueAt } from '../../../migrations/outboxDueAt';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { useRelayHarness } from '../../../test/support/relayHarness';
import { readOutboxStats } from './sql/outboxStats';

async function indexNames(db: Knex): Promise<string[]> {
  if (db.client.config.client === 'pg') {
    const r = (await db.raw("SELECT indexname FROM pg_indexes WHERE tablename = 'outbox_events'")) as { rows: { indexname: string }[] };
    return r.rows.map((x) => x.indexname).sort();
  }
  const [rows] = (await db.raw('SHOW INDEX FROM outbox_events')) as [{ Key_name: string }[]];
  return [...new Set(rows.map((x) => x.Key_name))].sort();
}

const ms = (d: unknown): number | null => (d == null ? null : new Date(d as Date).getTime());

describe('outbox (status, due_at) index (MariaDB, PostgreSQL)', () => {
  const h = useRelayHarness();
  const stores = () => [h.mysql, h.pg];

  it('has one status index besides the primary key and event_id', async () => {
    for (const s of stores()) {
      // The MariaDB shards also index aggregate_id for erasure (migrations/mysql/008_erasure_indexes.ts).
      const erasure = s === h.mysql ? ['ix_outbox_aggregate'] : [];
      expect((await indexNames(s.db)).filter((n) => !/pkey|PRIMARY/.test(n))).toEqual([
        ...erasure,
        'ix_outbox_status_due',
        'ux_outbox_event_id',
      ]);
    }
  });

  it('derives due_at from the status and its time on every change, with no writer setting it', async () => {
    for (const s of stores()) {
      const [e] = await seedOutbox(s.db, h.topic, 1);
      const row = () => s.db('outbox_events').where({ event_id: e!.eventId }).first('created_at', 'due_at');
      const at = (iso: string) => new Date(iso);
      const created = await row();
      expect(ms(created.due_at)).toBe(ms(created.created_at));
      const steps: [Record<string, unknown>, string][] = [
        [{ status: 'PROCESSING', lease_expires_at: at('2030-01-01T00:00:01.000Z') }, '2030-01-01T00:00:01.000Z'],
        [{ status: 'FAILED', lease_expires_at: null, next_retry_at: at('2030-01-01T00:00:02.000Z') }, '2030-01-01T00:00:02.000Z'],
        [{ status: 'PARKED', next_retry_at: null, parked_at: at('2030-01-01T00:00:03.000Z') }, '2030-01-01T00:00:03.000Z'],
        [{ status: 'SENT', sent_at: at('2030-01-01T00:00:04.000Z') }, '2030-01-01T00:00:04.000Z'],
      ];
      for (const [change, due] of steps) {
        await s.db('outbox_events').where({ event_id: e!.eventId }).update(change);
        expect(ms((await row()).due_at)).toBe(at(due).getTime());
      }
      // A replayed row is NEW again and takes its place by age, not at the end of the queue.
      await s.db('outbox_events').where({ event_id: e!.eventId }).update({ status: 'NEW' });
      expect(ms((await row()).due_at)).toBe(ms(created.created_at));
    }
  });

  it('reports the oldest unsent age from NEW rows and from claimed or failed ones', async () => {
    for (const s of stores()) {
      expect(await readOutboxStats(s.db)).toEqual({
        counts: { NEW: 0, PROCESSING: 0, FAILED: 0, PARKED: 0 },
        oldestUnsentAgeSeconds: 0,
        expiredClaims: 0,
      });
      const [a, b] = await seedOutbox(s.db, h.topic, 2);
      const hourAgo = s.db.raw(s.kind === 'mysql' ? 'NOW(3) - INTERVAL 1 HOUR' : "now() - interval '1 hour'");
      const minuteAgo = s.db.raw(s.kind === 'mysql' ? 'NOW(3) - INTERVAL 1 MINUTE' : "now() - interval '1 minute'");
      await s
        .db('outbox_events')
        .where({ event_id: a!.eventId })
        .update({ status: 'PROCESSING', created_at: hourAgo, lease_expires_at: minuteAgo });
      let stats = await readOutboxStats(s.db);
      expect(stats.counts).toEqual({ NEW: 1, PROCESSING: 1, FAILED: 0, PARKED: 0 });
      expect(stats.expiredClaims).toBe(1);
      expect(stats.oldestUnsentAgeSeconds).toBeGreaterThanOrEqual(3599);
      expect(stats.oldestUnsentAgeSeconds).toBeLessThan(3700);
      await s.db('outbox_events').where({ event_id: a!.eventId }).update({ status: 'SENT', sent_at: minuteAgo });
      await s.db('outbox_events').where({ event_id: b!.eventId }).update({ created_at: minuteAgo });
      stats = await readOutboxStats(s.db);
      expect(stats.counts).toEqual({ NEW: 1, PROCESSING: 0, FAILED: 0, PARKED: 0 });
      expect(stats.oldestUnsentAgeSeconds).toBeGreaterThanOrEqual(59);
      expect(stats.oldestUnsentAgeSeconds).toBeLessThan(120);
    }
  });

  it('migrates down to the four status indexes and up again', async () => {
    for (const s of stores()) {
      await dropOutboxDueAt(s.db);
      // The erasure index (MariaDB shards, migration 008) is not the due-at migration's business.
      expect((await indexNames(s.db)).filter((n) => !/pkey|PRIMARY|ix_outbox_aggregate/.test(n))).toEqual([
        'ix_outbox_status_created',
        'ix_outbox_status_lease',
        'ix_outbox_status_retry',
        'ix_outbox_status_sent',
        'ux_outbox_event_id',
      ]);
      await addOutboxDueAt(s.db);
      // The MariaDB shards also index aggregate_id for erasure (migrations/mysql/008_erasure_indexes.ts).
      const erasure = s === h.mysql ? ['ix_outbox_aggregate'] : [];
      expect((await indexNames(s.db)).filter((n) => !/pkey|PRIMARY/.test(n))).toEqual([
        ...erasure,
        'ix_outbox_status_due',
        'ux_outbox_event_id',
      ]);
    }
  });
});
