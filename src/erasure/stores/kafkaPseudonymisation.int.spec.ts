// The Kafka store of an erasure in mode 'pseudonymise' on the real broker: an orders topic made compacted
// by ensureTopics, a customer's order events replaced by records naming the pseudonym (same key, event id
// and version), the dead letter tombstoned, segment rolls and the broker's own compaction, then the
// verification scan. Fresh topics under the suite's unique prefix, deleted after.
import type { Kafka, Producer } from 'kafkajs';
import type { Settings } from '../../config/settings';
import { pseudonymOf, type ErasureJob } from '../../domains/contract/erasure';
import { eventTopicSuffixes } from '../../domains/registry';
import { ensureTopics, fromKafka, topicOf, type Topics } from '../../infra/kafka/fromKafka';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { scanTopics } from '../../infra/kafka/scanTopics';
import { toKafkaRecord } from '../../publication/event';
import { systemClock } from '../../shared/clock';
import { waitFor } from '../../shared/lifecycle';
import { orderEvent, produceEvents } from '../../../test/support/projectionEvents';
import { testSettings } from '../../../test/support/testEnv';
import { kafkaErasure } from './kafkaErasure';
import { PSEUDONYMISED_HEADER } from './kafkaPseudonymisation';

jest.setTimeout(180000);

const [A, B] = ['customer-ka', 'customer-kb'];
const order = (orderId: string, customerId: string, version: number, createdAt?: string) => ({
  ...orderEvent({ orderId, customerId, ...(createdAt ? { createdAt } : {}) }),
  eventId: `order:${orderId}:v${version}`,
  version,
});

describe('the Kafka store of an erasure (pseudonymise)', () => {
  let s: Settings;
  let kafka: Kafka;
  let producer: Producer;

  beforeAll(async () => {
    s = testSettings();
    kafka = fromKafka(s, '-pseudonymise-test');
    producer = fromKafkaProducer(kafka);
    await producer.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    try {
      const mine = (await admin.listTopics()).filter((t) => t.startsWith(`${s.kafkaTopicPrefix}.`));
      if (mine.length) await admin.deleteTopics({ topics: mine, timeout: 10000 });
    } catch {
      // best effort: names are unique per suite
    } finally {
      await admin.disconnect();
    }
  });

  it('replaces the customer in the newest record of each order, compacts the old ones away, keeps the others', async () => {
    const topics: Topics = await ensureTopics(kafka, { ...s, kafkaTopicPrefix: `${s.kafkaTopicPrefix}.pseud` }, eventTopicSuffixes(), {
      compactedDomains: ['orders'],
    });
    const events = topicOf(topics, 'orders');
    await produceEvents(producer, events, [order('ka-1', A, 1), order('ka-1', A, 2), order('ka-2', A, 1), order('kb-1', B, 1)]);
    const rejected = toKafkaRecord(order('ka-1', A, 3));
    await producer.send({ topic: topics.deadLetter, acks: -1, messages: [{ key: rejected.key, value: rejected.value }] });

    const store = kafkaErasure({
      kafka,
      topics: { events: (d) => topicOf(topics, d), deadLetter: topics.deadLetter },
      subjectField: () => 'customerId',
      clock: systemClock,
      segmentMs: s.kafkaCompactionSegmentMs,
      groupPrefix: `${s.kafkaTopicPrefix}-pseudonymise`,
    });
    const job: ErasureJob = {
      erasureId: 'erasure-pseud-1',
      kind: 'customer',
      mode: 'pseudonymise',
      subjectId: A,
      domain: 'orders',
      aggregateIds: ['ka-1', 'ka-2'],
      subjectHash: 'a'.repeat(64),
      startedAt: new Date(),
    };
    const pseudonym = pseudonymOf(job);
    // The customer comes back after the request: a new order, a later event time.
    await produceEvents(producer, events, [order('ka-3', A, 1, new Date(job.startedAt.getTime() + 1000).toISOString())]);

    expect((await store.verify(job)).found).toBe(4);

    const started = Date.now();
    let steps = 0;
    const first = await store.erase(job);
    expect(first).toMatchObject({ done: false, affected: 3 });
    await waitFor(
      async () => {
        steps++;
        return (await store.erase(job)).done;
      },
      { timeoutMs: 150000, intervalMs: 2000, what: 'compaction of the replaced records' },
    );
    console.log(
      `kafka pseudonymise -> done in ${Date.now() - started} ms over ${steps + 1} steps (segment.ms ${s.kafkaCompactionSegmentMs})`,
    );

    expect(await store.verify(job)).toMatchObject({ store: 'kafka', found: 0 });
    const kept = new Map<string, { value: string | null; headers: Record<string, string> }>();
    await scanTopics(kafka, [events], (r) => {
      if (!r.key) return;
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, String(v)]));
      kept.set(r.key.toString(), { value: r.value?.toString() ?? null, headers });
    });
    const ka1 = kept.get('ka-1')!;
    expect(JSON.parse(ka1.value!)).toMatchObject({
      eventId: 'order:ka-1:v2',
      version: 2,
      data: { customerId: pseudonym, total: '39.8000' },
    });
    expect(ka1.headers[PSEUDONYMISED_HEADER]).toBe(job.erasureId);
    expect(JSON.parse(kept.get('ka-2')!.value!)).toMatchObject({ version: 1, data: { customerId: pseudonym } });
    expect(JSON.parse(kept.get('kb-1')!.value!)).toMatchObject({ data: { customerId: B } });
    expect(JSON.parse(kept.get('ka-3')!.value!)).toMatchObject({ data: { customerId: A } });
    // Nothing of the customer is left before the request: no old version, no dead letter.
    let old = 0;
    await scanTopics(kafka, [events, topics.deadLetter], (r) => {
      if (r.value && r.key?.toString() !== 'ka-3' && r.value.toString().includes(A)) old++;
    });
    expect(old).toBe(0);
    expect(await store.erase(job)).toMatchObject({ done: true, affected: 0 });
  });
});
