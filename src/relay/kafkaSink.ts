// The relay's publish port and its Kafka adapter. One call publishes a claimed batch with one
// sendBatch (acks=all, idempotent producer from fromKafkaProducer), bounded by the publish timeout,
// which the relay keeps below the claim lease. Outcomes per row:
//   - all acknowledged                    -> sent
//   - an outage (shared/publishFailure.ts) -> every row failed with that error; delivery is uncertain
//                                             (the broker may have the batch), so each is sent again
//                                             later: a duplicate at worst, never a loss
//   - a record failure, or an unclassified -> the batch is re-sent one record at a time inside the same
//     error                                   deadline, so one poison record fails alone instead of
//                                             taking its batch (and its attempt budget) with it
// After any failure the producer is recreated before the next send: an idempotent producer whose
// request failed can be out of step with the broker's sequence numbers for that partition.
import type { Kafka, Producer } from 'kafkajs';
import { fromKafkaProducer } from '../infra/kafka/producer';
import { publishTimeout, withTimeout } from '../shared/timeout';
import { classifyPublishFailure, type PublishFailureKind } from '../shared/publishFailure';
import type { RelayRecord } from '../publication/relayPort/publicationTable';

export type SinkRecord = Pick<RelayRecord, 'id' | 'topic' | 'key' | 'value' | 'headers'>;

export interface PublishResult {
  sent: number[];
  failed: { id: number; error: unknown; kind: PublishFailureKind }[];
}

export interface EventSink {
  publish(records: SinkRecord[]): Promise<PublishResult>;
  /** Connects ahead of the first publish (optional; publish connects on demand). */
  connect?(): Promise<void>;
  close(): Promise<void>;
}

/** Every record failed with `error` (kind from the classification). */
export function allFailed(records: SinkRecord[], error: unknown): PublishResult {
  const kind = classifyPublishFailure(error);
  return { sent: [], failed: records.map((r) => ({ id: r.id, error, kind })) };
}

export function fromKafkaSink(kafka: Kafka, opts: { timeoutMs: number }): EventSink {
  let producer: Producer | undefined;
  let connecting: Promise<Producer> | undefined;
  let closed = false;

  function connected(): Promise<Producer> {
    if (producer) return Promise.resolve(producer);
    connecting ??= (async () => {
      const p = fromKafkaProducer(kafka);
      try {
        await p.connect();
      } catch (err) {
        void p.disconnect().catch(() => undefined);
        throw err;
      }
      producer = p;
      return p;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  /** Drops the producer after a failure; the next batch connects afresh. */
  function reset(): void {
    const p = producer;
    producer = undefined;
    if (p) void withTimeout(p.disconnect(), 2000, 'producer disconnect').catch(() => undefined);
  }

  async function send(records: SinkRecord[], deadline: number): Promise<void> {
    const remaining = () => deadline - Date.now();
    const timeout = () => publishTimeout(opts.timeoutMs);
    if (remaining() <= 0) throw timeout();
    const p = await withTimeout(connected(), remaining(), timeout);
    const byTopic = new Map<string, SinkRecord[]>();
    for (const r of records) {
      const list = byTopic.get(r.topic);
      if (list) list.push(r);
      else byTopic.set(r.topic, [r]);
    }
    const topicMessages = [...byTopic].map(([topic, list]) => ({
      topic,
      messages: list.map((r) => ({ key: r.key, value: r.value, headers: r.headers })),
    }));
    await withTimeout(p.sendBatch({ acks: -1, timeout: Math.max(1, remaining()), topicMessages }), remaining(), timeout);
  }

  return {
    async publish(records) {
      if (closed) throw new Error('sink closed');
      if (records.length === 0) return { sent: [], failed: [] };
      const deadline = Date.now() + opts.timeoutMs;
      try {
        await send(records, deadline);
        return { sent: records.map((r) => r.id), failed: [] };
      } catch (err) {
        reset();
        const whole = allFailed(records, err);
        if (records.length === 1 || whole.failed[0]!.kind === 'outage') return whole;
        // Isolate the poison record(s): one by one, within what is left of the same deadline.
        const result: PublishResult = { sent: [], failed: [] };
        for (const r of records) {
          try {
            await send([r], deadline);
            result.sent.push(r.id);
          } catch (one) {
            result.failed.push({ id: r.id, error: one, kind: classifyPublishFailure(one) });
            reset();
          }
        }
        return result;
      }
    },
    async connect() {
      await connected();
    },
    async close() {
      closed = true;
      const p = producer ?? (connecting ? await connecting.catch(() => undefined) : undefined);
      producer = undefined;
      if (p) await withTimeout(p.disconnect(), 5000, 'producer disconnect').catch(() => undefined);
    },
  };
}
