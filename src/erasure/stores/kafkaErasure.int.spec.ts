// The Kafka store of an erasure on the real broker: topics made compacted by ensureTopics (altered from
// plain ones, as on an upgraded deployment, and created so), tombstones, segment rolls and the broker's
// own compaction, then the verification scan. Fresh topics under the suite's unique prefix, deleted after.
import { ConfigResourceTypes, type Kafka, type Producer } from 'kafkajs';
import { eventTopicSuffixes } from '../../domains/registry';
import { ensureTopics, fromKafka, topicOf, type Topics } from '../../infra/kafka/fromKafka';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { scanTopics } from '../../infra/kafka/scanTopics';
import type { ErasureJob } from '../../domains/contract/erasure';
import type { Settings } from '../../config/settings';
import { systemClock } from '../../shared/clock';
import { waitFor } from '../../shared/lifecycle';
import { testSettings } from '../../../test/support/testEnv';
import { fitnessEvent, produceEvents } from '../../../test/support/projectionEvents';
import { toKafkaRecord } from '../../publication/event';
import { kafkaErasure } from './kafkaErasure';

jest.setTimeout(180000);

const campaign = { detectId: 10001, projectId: 3, schoolId: 7, grade: 5 };
const versions = (dataId: number, userId: number, n: number, over: { createdAt?: string } = {}) =>
  Array.from({ length: n }, (_, i) => fitnessEvent({ ...campaign, ...over, dataId, userId, result: `2.${i}00`, version: i + 1 }));

describe('the Kafka store of an erasure', () => {
  let s: Settings;
  let kafka: Kafka;
  let producer: Producer;

  beforeAll(async () => {
    s = testSettings();
    kafka = fromKafka(s, '-erasure-test');
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

  async function configOf(topic: string): Promise<Record<string, string>> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const r = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }] });
      return Object.fromEntries(r.resources[0]!.configEntries.map((e) => [e.configName, e.configValue]));
    } finally {
      await admin.disconnect();
    }
  }

  it('compacts the personal topics: created so, and altered so when they exist plain', async () => {
    const created = await ensureTopics(kafka, { ...s, kafkaTopicPrefix: `${s.kafkaTopicPrefix}.new` }, eventTopicSuffixes(), {
      compactedDomains: ['fitness'],
    });
    expect(await configOf(topicOf(created, 'fitness'))).toMatchObject({ 'cleanup.policy': 'compact,delete', 'segment.ms': '10000' });
    expect((await configOf(topicOf(created, 'orders')))['cleanup.policy']).toBe('delete');
    const prefix = `${s.kafkaTopicPrefix}.old`;
    const plain = await ensureTopics(kafka, { ...s, kafkaTopicPrefix: prefix }, eventTopicSuffixes());
    expect((await configOf(plain.deadLetter))['cleanup.policy']).toBe('delete');
    await ensureTopics(kafka, { ...s, kafkaTopicPrefix: prefix }, eventTopicSuffixes(), { compactedDomains: ['fitness'] });
    for (const t of [topicOf(plain, 'fitness'), plain.deadLetter])
      expect(await configOf(t)).toMatchObject({
        'cleanup.policy': 'compact,delete',
        'segment.ms': String(s.kafkaCompactionSegmentMs),
        'max.compaction.lag.ms': String(s.kafkaMaxCompactionLagMs),
        'retention.ms': String(s.kafkaRetentionMs),
      });
  });

  it('erases one student from the events and dead-letter topics and keeps the other and the one who came back', async () => {
    const topics: Topics = await ensureTopics(kafka, { ...s, kafkaTopicPrefix: `${s.kafkaTopicPrefix}.erase` }, eventTopicSuffixes(), {
      compactedDomains: ['fitness'],
    });
    const events = topicOf(topics, 'fitness');
    await produceEvents(producer, events, [...versions(710001, 41, 3), ...versions(710002, 41, 2), ...versions(710101, 42, 3)]);
    // The projector's dead letter of the first student: the original key and bytes.
    const rejected = toKafkaRecord(fitnessEvent({ ...campaign, dataId: 710001, userId: 41, result: '2.000', version: 4 }));
    await producer.send({ topic: topics.deadLetter, acks: -1, messages: [{ key: rejected.key, value: rejected.value }] });

    const store = kafkaErasure({
      kafka,
      topics: { events: (d) => topicOf(topics, d), deadLetter: topics.deadLetter },
      subjectField: () => 'userId',
      clock: systemClock,
      segmentMs: s.kafkaCompactionSegmentMs,
      groupPrefix: `${s.kafkaTopicPrefix}-erasure`,
    });
    const job: ErasureJob = {
      erasureId: 'erasure-test-1',
      kind: 'student',
      mode: 'delete',
      subjectId: '41',
      domain: 'fitness',
      aggregateIds: ['710001', '710002'],
      subjectHash: 'h',
      startedAt: new Date(),
    };
    // The student comes back after the request: a new result, a new aggregate id, a later event time.
    const later = new Date(job.startedAt.getTime() + 1000).toISOString();
    await produceEvents(producer, events, versions(710003, 41, 1, { createdAt: later }));

    const before = await store.verify(job);
    expect(before.found).toBe(6);

    const started = Date.now();
    let steps = 0;
    let last = await store.erase(job);
    await waitFor(
      async () => {
        last = await store.erase(job);
        steps++;
        return last.done;
      },
      { timeoutMs: 150000, intervalMs: 2000, what: 'compaction of the erased keys' },
    );
    const tookMs = Date.now() - started;
    console.log(`kafka erase -> done in ${tookMs} ms over ${steps + 1} steps (segment.ms ${s.kafkaCompactionSegmentMs})`);

    const after = await store.verify(job);
    expect(after).toMatchObject({ store: 'kafka', found: 0 });
    expect(after.searched).toEqual([
      `${events} (partitions p0..p${s.kafkaPartitions - 1} from earliest offset)`,
      `${topics.deadLetter} (partitions p0..p${s.kafkaPartitions - 1} from earliest offset)`,
    ]);
    // What compaction kept: per key the latest record; the others' values, the erased keys' tombstones only.
    const kept = new Map<string, string | null>();
    await scanTopics(kafka, [events], (r) => r.key && kept.set(r.key.toString(), r.value?.toString() ?? null));
    expect(JSON.parse(kept.get('710101')!)).toMatchObject({ version: 3, data: { userId: 42 } });
    expect(JSON.parse(kept.get('710003')!)).toMatchObject({ version: 1, data: { userId: 41 } });
    expect(kept.get('710001')).toBeNull();
    expect(kept.get('710002')).toBeNull();
    // Done stays done: a repeated call writes nothing.
    expect(await store.erase(job)).toMatchObject({ done: true, affected: 0 });
  });
});
