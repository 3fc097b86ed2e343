// The outbox relay's claim protocol on real MariaDB, PostgreSQL and Kafka: batches keyed by
// aggregate id, SKIP LOCKED claims that never overlap within a lease, expired leases reclaimed, and
// completions guarded by the claim token.
import { waitFor } from '../../shared/lifecycle';
import { readTopic } from '../../../test/support/readTopic';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { useRelayHarness, type BatchReport, type EventSink } from '../../../test/support/relayHarness';
import { claimBatch } from './sql/claimBatch';
import { markFailed } from './sql/markFailed';
import { markSent } from './sql/markSent';
import { releaseClaim } from './sql/releaseClaim';

jest.setTimeout(60000);

describe('outbox relay claims (MariaDB, PostgreSQL, Kafka)', () => {
  const h = useRelayHarness();

  it('publishes a claimed batch keyed by aggregate id and marks it SENT, on MariaDB and PostgreSQL', async () => {
    const onMysql = await seedOutbox(h.mysql.db, h.topic, 5);
    const onPg = await seedOutbox(h.pg.db, h.topic, 5);
    expect(await h.once(h.mysql, h.good)).toMatchObject({ claimed: 5, sent: 5, failed: 0, claimLost: 0 });
    expect(await h.once(h.pg, h.good)).toMatchObject({ claimed: 5, sent: 5, failed: 0, claimLost: 0 });
    for (const db of [h.mysql.db, h.pg.db]) expect((await h.statuses(db)).map((r) => r.status)).toEqual(Array(5).fill('SENT'));

    const ids = new Set([...onMysql, ...onPg].map((e) => e.eventId));
    const msgs = await readTopic(h.env.resources.kafka, h.topic, (m) => m.filter((x) => ids.has(x.envelope.eventId)).length >= 10);
    // Every published record is byte for byte the row stored on its engine, MariaDB and PostgreSQL alike.
    const stored = new Map<string, string>();
    for (const db of [h.mysql.db, h.pg.db])
      for (const r of (await db('outbox_events').select('event_id', 'message_value')) as { event_id: string; message_value: string }[])
        stored.set(r.event_id, r.message_value);
    const mine = msgs.filter((x) => ids.has(x.envelope.eventId));
    expect(new Set(mine.map((m) => m.envelope.eventId))).toEqual(ids);
    for (const m of mine) {
      expect(m.key).toBe(m.envelope.aggregateId);
      expect(m.headers.eventId).toBe(m.envelope.eventId);
      expect({ eventId: m.envelope.eventId, value: JSON.stringify(m.envelope) }).toEqual({
        eventId: m.envelope.eventId,
        value: stored.get(m.envelope.eventId),
      });
    }
  });

  it('concurrent relays never publish a row twice within one lease', async () => {
    const events = await seedOutbox(h.mysql.db, h.topic, 600);
    const published = new Map<number, number>();
    const recording: EventSink = {
      async publish(batch) {
        for (const e of batch) published.set(e.id, (published.get(e.id) ?? 0) + 1);
        return h.good.publish(batch);
      },
      close: async () => undefined,
    };
    const relay = async () => {
      let lost = 0;
      for (;;) {
        const r = await h.once(h.mysql, recording, { batchSize: 25 });
        lost += r.claimLost;
        if (r.claimed === 0) return lost;
      }
    };
    const lost = await Promise.all([relay(), relay(), relay(), relay()]);
    expect(lost).toEqual([0, 0, 0, 0]);
    expect(published.size).toBe(600);
    expect([...published.values()].every((n) => n === 1)).toBe(true);
    expect(new Set((await h.statuses(h.mysql.db)).map((r) => r.status))).toEqual(new Set(['SENT']));

    const ids = new Set(events.map((e) => e.eventId));
    const msgs = await readTopic(h.env.resources.kafka, h.topic, (m) => m.filter((x) => ids.has(x.envelope.eventId)).length >= 600);
    const mine = msgs.filter((x) => ids.has(x.envelope.eventId));
    expect(mine).toHaveLength(600);
    expect(new Set(mine.map((x) => x.envelope.eventId)).size).toBe(600);
  });

  it('reclaims a claim whose lease expired (relay died after claiming) and delivers it with its original version', async () => {
    const [event] = await seedOutbox(h.mysql.db, h.topic, 1);
    const abandoned = await claimBatch(h.mysql.db, {
      limit: 10,
      leaseMs: 3000,
      token: 'dead-relay-token',
      owner: 'dead-relay',
      giveUp: () => false,
    });
    expect(abandoned.records).toHaveLength(1);

    // While the lease is valid nobody else may take the row.
    expect((await h.once(h.mysql, h.good)).claimed).toBe(0);
    const r = await waitFor(
      async () => {
        const x = await h.once(h.mysql, h.good);
        return x.claimed > 0 && x;
      },
      { what: 'the expired claim to be reclaimed' },
    );
    expect(r).toMatchObject({ claimed: 1, reclaimed: 1, sent: 1 });
    expect(await h.total(h.metrics.reclaimedExpired)).toBe(1);
    expect((await h.statuses(h.mysql.db))[0]).toMatchObject({ status: 'SENT', attempts: 2 });

    const msgs = await readTopic(h.env.resources.kafka, h.topic, (m) => m.some((x) => x.envelope.eventId === event!.eventId));
    expect(msgs.find((x) => x.envelope.eventId === event!.eventId)!.envelope.version).toBe(1);
  });

  it('a stale claim token cannot overwrite a newer claimant; the lost completion is counted', async () => {
    await seedOutbox(h.mysql.db, h.topic, 3);
    let newer: BatchReport | undefined;
    const stale = await h.once(h.mysql, h.good, {
      leaseMs: 300,
      onStage: async (stage) => {
        if (stage !== 'claimed') return;
        // Relay A stalls past its lease; relay B takes the rows over and completes them.
        newer = await waitFor(
          async () => {
            const x = await h.once(h.mysql, h.good, { owner: 'relay-b' });
            return x.claimed > 0 && x;
          },
          { what: 'relay B to reclaim' },
        );
      },
    });
    expect(newer).toMatchObject({ claimed: 3, reclaimed: 3, sent: 3 });
    expect(stale).toMatchObject({ claimed: 3, sent: 0, claimLost: 3 });
    expect(await h.total(h.metrics.claimLost)).toBe(3);
    const rows = (await h.mysql.db('outbox_events').select('status', 'claimed_by')) as { status: string; claimed_by: string }[];
    expect(rows.every((r) => r.status === 'SENT' && r.claimed_by === 'relay-b')).toBe(true);

    // Direct completions with a stale token change nothing, whatever they try to write.
    const ids = ((await h.mysql.db('outbox_events').select('id')) as { id: number }[]).map((r) => Number(r.id));
    const claim = await claimBatch(h.mysql.db, { limit: 10, leaseMs: 60000, token: 'other', owner: 'x', giveUp: () => false });
    expect(claim.records).toEqual([]); // every row is SENT: nothing to claim
    const records = ids.map((id) => ({
      id,
      eventId: '',
      domain: 'fitness' as const,
      aggregateId: '',
      version: 1,
      topic: '',
      key: '',
      value: '',
      headers: {},
      attempts: 1,
      from: 'PROCESSING' as const,
      ageMs: 0,
      traceparent: null,
    }));
    expect(await markFailed(h.mysql.db, 'not-the-owner', { records, giveUp: true, delayMs: 0, error: { code: 'X', summary: 'x' } })).toBe(
      0,
    );
    expect(await releaseClaim(h.mysql.db, 'not-the-owner', records, 0, { code: 'X', summary: 'x' })).toBe(0);
    expect(await markSent(h.mysql.db, 'not-the-owner', ids)).toBe(0);
    expect((await h.statuses(h.mysql.db)).every((r) => r.status === 'SENT')).toBe(true);
  });
});
