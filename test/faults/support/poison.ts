// Poison on the domain topics, produced straight to the suite's broker as a broken or foreign producer
// would: bytes that are not JSON, and a well-formed event with a schemaVersion this projector does not
// know. Both must land on the dead-letter topic with their reason, and never block their partition,
// and make their domain read STALE until an operator discards them (discardPoison).
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Topics } from '../../../src/infra/kafka/fromKafka';
import { fromKafkaProducer } from '../../../src/infra/kafka/producer';
import { DEAD_LETTER_HEADERS } from '../../../src/projections/deadLetters';
import { waitFor } from '../../../src/shared/lifecycle';
import { fitnessEvent } from '../../support/projectionEvents';
import { toKafkaRecord } from '../../../src/publication/event';
import { executeRaw } from '../../support/graphqlClient';

export interface PoisonSent {
  /** Keys of the poison messages (dead letters keep the original key). */
  keys: string[];
  /** A dataId that only the unknown-schemaVersion event carries: it must never reach ClickHouse. */
  foreignDataId: number;
}

export async function sendPoison(kafka: Kafka, topics: Topics, detectId: number): Promise<PoisonSent> {
  const producer = fromKafkaProducer(kafka);
  await producer.connect();
  try {
    // dataId 99 on a shard index no deployment has (dataId % 100 = 99): no store can ever hold it.
    const foreignDataId = 990_000_000 + Math.floor(Math.random() * 1_000_000) * 100 + 99;
    const future = toKafkaRecord({
      ...fitnessEvent({ dataId: foreignDataId, detectId, userId: 1, projectId: 3, schoolId: 1, grade: 1, result: '2.000', version: 1 }),
      schemaVersion: 99,
    });
    const malformedKey = `poison-${randomUUID()}`;
    await producer.send({
      topic: topics.events.fitness,
      acks: -1,
      messages: [
        { key: malformedKey, value: '{"eventId": "truncated', headers: { eventId: 'poison' } },
        { key: future.key, value: future.value, headers: future.headers },
      ],
    });
    await producer.send({
      topic: topics.events.orders,
      acks: -1,
      messages: [{ key: `poison-${randomUUID()}`, value: Buffer.from([0xff, 0xfe, 0x00, 0x01]) }],
    });
    return { keys: [malformedKey, future.key], foreignDataId };
  } finally {
    await producer.disconnect();
  }
}

export interface DeadLetterSeen {
  key: string;
  reason: string;
  sourceTopic: string;
}

/** Reads the whole dead-letter topic (from the beginning) once it holds at least `atLeast` messages. */
export async function readDeadLetters(kafka: Kafka, topic: string, atLeast: number, timeoutMs = 60000): Promise<DeadLetterSeen[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await waitFor(async () => (await admin.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high) - Number(p.low), 0) >= atLeast, {
      timeoutMs,
      intervalMs: 250,
      what: `${atLeast} dead letters on ${topic}`,
    });
    const total = (await admin.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
    const consumer = kafka.consumer({ groupId: `fault-dlq-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const seen: DeadLetterSeen[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const h = (k: string) => (message.headers?.[k] ? String(message.headers[k]) : '');
          seen.push({
            key: message.key?.toString() ?? '',
            reason: h(DEAD_LETTER_HEADERS.reason),
            sourceTopic: h(DEAD_LETTER_HEADERS.topic),
          });
        },
      });
      await waitFor(() => seen.length >= total, { timeoutMs, intervalMs: 100, what: 'dead letters read' });
      return seen;
    } finally {
      await consumer.disconnect();
    }
  } finally {
    await admin.disconnect();
  }
}

const LIST_DEAD = `query { projectorDeadLetters(filter: { statuses: [DEAD] }, first: 100) { id reason } }`;
const FITNESS_FRESHNESS = `query($d: Int!) { fitnessResults(filter: { detectId: $d }, first: 1) { freshness { status reason } } }`;
const DISCARD = `mutation($ids: [ID!]!) { discardProjectorDeadLetters(ids: $ids, reason: "fault suite poison: not events") { id status } }`;

/**
 * What an operator does with poison: while its dead letters are DEAD the domain reads STALE
 * (PROJECTOR_DEAD_LETTERED: someone must look); bytes that are not events are then discarded, which
 * lets the domain read FRESH again. Returns the freshness seen while they were DEAD.
 */
export async function discardPoison(
  url: string,
  operator: Record<string, string>,
  atLeast: number,
  detectId: number,
): Promise<{ status: string; reason: string; discarded: number }> {
  const ids = await waitFor(
    async () => {
      const r = await executeRaw(url, LIST_DEAD, {}, operator);
      const rows = (r.data?.projectorDeadLetters ?? []) as { id: string }[];
      return rows.length >= atLeast && rows.map((x) => x.id);
    },
    { timeoutMs: 60000, what: `${atLeast} DEAD projector dead letters` },
  );
  const seen = await executeRaw(url, FITNESS_FRESHNESS, { d: detectId }, operator);
  const freshness = (seen.data?.fitnessResults as { freshness: { status: string; reason: string } } | undefined)?.freshness;
  const discarded = await executeRaw(url, DISCARD, { ids }, operator);
  if (discarded.errors) throw new Error(`discard failed: ${JSON.stringify(discarded.errors)}`);
  return {
    status: freshness?.status ?? 'UNKNOWN',
    reason: freshness?.reason ?? 'UNKNOWN',
    discarded: (discarded.data?.discardProjectorDeadLetters as unknown[]).length,
  };
}
