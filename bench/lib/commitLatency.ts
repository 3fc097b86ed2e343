// Commit-to-Kafka latency of an outbox publisher (our relay, or a peer such as Debezium): while it runs,
// the bench writes timed batches of outbox rows (the drain rows' own generator, one transaction per
// batch, at a fixed rate), then takes each message back from the topic and subtracts its row's
// created_at (the database's clock at insert, a few ms before the commit) from the broker's append
// time (the topic is LogAppendTime). Same machine, same clock: no skew to correct.
import type { Kafka } from 'kafkajs';
import type { Knex } from 'knex';
import { waitFor } from '../../src/shared/lifecycle';
import { seedOutbox } from '../../test/support/outboxSeed';
import { readTopic, topicEnds, topicMessageCount, type TopicMessage } from './kafkaUtil';
import { summarize, type LatencySummary } from './stats';

export interface TimedLoad {
  batches: number;
  batchSize: number;
  intervalMs: number;
}

export interface OutboxTarget {
  db: Knex;
  shard: number;
}

/** The highest outbox id of each target (rows written later have higher ids). */
export async function outboxMarks(targets: OutboxTarget[]): Promise<number[]> {
  const marks: number[] = [];
  for (const t of targets) marks.push(Number(((await t.db('outbox_events').max({ m: 'id' })) as { m: number | null }[])[0]!.m ?? 0));
  return marks;
}

/**
 * Writes `load.batches` batches, one every `intervalMs` (round-robin over the targets), event
 * sequences from `firstSequence`. Returns how many rows were written and how late the writer fell.
 */
export async function writeTimedBatches(
  targets: OutboxTarget[],
  topic: string,
  load: TimedLoad,
  firstSequence: number,
): Promise<{ rows: number; maxLagMs: number }> {
  const t0 = performance.now();
  let maxLagMs = 0;
  for (let i = 0; i < load.batches; i++) {
    const due = t0 + i * load.intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else maxLagMs = Math.max(maxLagMs, -wait);
    const t = targets[i % targets.length]!;
    await seedOutbox(t.db, topic, load.batchSize, {
      shard: t.shard,
      firstSequence: firstSequence + i * load.batchSize,
      chunk: load.batchSize,
    });
  }
  return { rows: load.batches * load.batchSize, maxLagMs: Math.round(maxLagMs) };
}

/** event_id -> created_at (epoch ms) of the rows above `marks` (pools work in UTC, as the writers did). */
export async function createdAtSince(targets: OutboxTarget[], marks: number[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [i, t] of targets.entries()) {
    const rows = (await t
      .db('outbox_events')
      .where('id', '>', marks[i]!)
      .select('event_id', t.db.raw('UNIX_TIMESTAMP(created_at) * 1000 AS at'))) as { event_id: string; at: string | number }[];
    for (const r of rows) out.set(r.event_id, Number(r.at));
  }
  return out;
}

/** Append time minus created_at per message whose `idHeader` names a written row; unmatched ids counted. */
export function commitToKafka(
  messages: TopicMessage[],
  idHeader: string,
  createdAt: Map<string, number>,
): LatencySummary & { unmatched: number } {
  const samples: number[] = [];
  let unmatched = 0;
  for (const m of messages) {
    const at = createdAt.get(m.headers[idHeader] ?? '');
    if (at === undefined) unmatched++;
    else samples.push(m.timestamp - at);
  }
  return { ...summarize(samples), unmatched };
}

/** Messages, distinct ids, and the first-to-last span of broker append times. */
export function deliveryOf(messages: TopicMessage[], idHeader: string): { messages: number; distinct: number; spanMs: number } {
  let first = Infinity;
  let last = -Infinity;
  for (const m of messages) {
    first = Math.min(first, m.timestamp);
    last = Math.max(last, m.timestamp);
  }
  const distinct = new Set(messages.map((m) => m.headers[idHeader])).size;
  return { messages: messages.length, distinct, spanMs: messages.length ? last - first : Number.NaN };
}

/**
 * Timed batches while the publisher runs, then each message's append time minus its row's created_at.
 * `drained` is the publisher's own "all sent" (our relay's outbox status); the topic count suffices otherwise.
 */
export async function measureCommitLatency(
  kafka: Kafka,
  topic: string,
  targets: OutboxTarget[],
  load: TimedLoad,
  idHeader: string,
  drained: () => Promise<boolean> = async () => true,
) {
  const from = await topicEnds(kafka, topic);
  const before = [...from.values()].reduce((a, b) => a + b, 0);
  const marks = await outboxMarks(targets);
  const written = await writeTimedBatches(targets, topic, load, 10_000_000);
  await waitFor(async () => (await topicMessageCount(kafka, topic)) - before >= written.rows && (await drained()), {
    timeoutMs: 120_000,
    intervalMs: 100,
    what: `${written.rows} timed events on ${topic}`,
  });
  const createdAt = await createdAtSince(targets, marks);
  return { ...commitToKafka(await readTopic(kafka, topic, from), idHeader, createdAt), writerMaxLagMs: written.maxLagMs };
}
