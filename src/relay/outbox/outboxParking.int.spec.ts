// Parking on real MariaDB, PostgreSQL and Kafka: a record the broker refuses is parked at its attempt
// limit while the rest flow, parked rows are never claimed again without an operator, and after the
// fix (the topic's record limit raised) an operator replay delivers it with its original eventId.
import { makePoison, seedOutbox } from '../../../test/support/outboxSeed';
import { useRelayHarness } from '../../../test/support/relayHarness';
import { outboxOperator, parkedEventPages } from '../../publication/outbox/operator';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { systemClock } from '../../shared/clock';
import { waitFor } from '../../shared/lifecycle';

jest.setTimeout(60000);

describe('outbox relay parking and replay (PostgreSQL, Kafka)', () => {
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
});
