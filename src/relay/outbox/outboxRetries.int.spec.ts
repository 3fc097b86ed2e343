// The outbox relay's failure handling on real MariaDB, PostgreSQL and Kafka. Outage and poison are
// told apart: a broker that cannot be reached spends no attempt (the rows go back with their count
// unchanged and the circuit opens), while a record the broker refuses (larger than the topic's
// max.message.bytes) is retried with bounded exponential backoff on the database clock and fails alone
// in its batch. Parking and replay: outboxParking.int.spec.ts; cleanup and gauges:
// outboxMaintenance.int.spec.ts. Kafka failures are real (a producer pointed at a closed port, or a
// record the broker refuses), never a stubbed client.
import { kafkaCircuit } from '../../infra/kafka/kafkaCircuit';
import { waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { makePoison, seedOutbox, TOO_LARGE } from '../../../test/support/outboxSeed';
import { useRelayHarness } from '../../../test/support/relayHarness';

jest.setTimeout(60000);

describe('outbox relay retries (MariaDB, PostgreSQL, Kafka)', () => {
  const h = useRelayHarness();

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
});
