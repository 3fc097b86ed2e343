// The relay's publish port and its Kafka adapter. One call publishes a whole claimed batch with one
// sendBatch (acks=all, idempotent producer from fromKafkaProducer), bounded by the publish timeout,
// which the relay keeps below the claim lease. Outcomes per row:
//   - all acknowledged                 -> sent
//   - timeout / connection failure     -> failed (delivery uncertain: the broker may have the batch;
//                                         the row is retried and may be delivered twice, never zero
//                                         times)
//   - the broker rejected a record     -> the batch is re-sent one record at a time inside the same
//     (non-retriable protocol error)      deadline, so one poison record fails (and is eventually
//                                         parked) alone instead of taking its batch with it
// After any failure the producer is recreated before the next send: an idempotent producer whose
// request failed can be out of step with the broker's sequence numbers for that partition.
import type { Kafka, Producer } from 'kafkajs';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { TidemarkError } from '../../shared/errors';
import type { ClaimedEvent } from './outboxEvent';

export interface PublishResult {
  sent: number[];
  failed: { id: number; error: unknown }[];
}

export interface EventSink {
  publish(events: ClaimedEvent[]): Promise<PublishResult>;
  /** Connects ahead of the first publish (optional; publish connects on demand). */
  connect?(): Promise<void>;
  close(): Promise<void>;
}

export class PublishTimeoutError extends TidemarkError {
  constructor(ms: number) {
    super('PUBLISH_TIMEOUT', `the broker did not acknowledge within ${ms} ms; delivery is uncertain`);
    this.name = 'PublishTimeoutError';
  }
}

/** Races `p` against a timer; the loser's rejection is swallowed so it cannot surface unhandled. */
export function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  p.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(onTimeout()), Math.max(1, ms));
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/** Broker errors that refuse the records themselves (re-sending them can never succeed). */
const RECORD_REJECTIONS = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE', 'INVALID_TIMESTAMP']);

/** True when the broker refused a record itself (e.g. MESSAGE_TOO_LARGE), not the transport. */
export function isRecordRejected(err: unknown): boolean {
  for (let e = err as { type?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.type === 'string' && RECORD_REJECTIONS.has(e.type)) return true;
    if (e.cause === e) break;
  }
  return false;
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

  /** Drops the producer after a timeout or transport failure; the next batch connects afresh. */
  function reset(): void {
    const p = producer;
    producer = undefined;
    if (p) void withTimeout(p.disconnect(), 2000, () => new Error('disconnect timed out')).catch(() => undefined);
  }

  async function send(events: ClaimedEvent[], deadline: number): Promise<void> {
    const remaining = () => deadline - Date.now();
    const timeout = () => new PublishTimeoutError(opts.timeoutMs);
    if (remaining() <= 0) throw timeout();
    const p = await withTimeout(connected(), remaining(), timeout);
    const byTopic = new Map<string, ClaimedEvent[]>();
    for (const e of events) {
      const list = byTopic.get(e.topic);
      if (list) list.push(e);
      else byTopic.set(e.topic, [e]);
    }
    await withTimeout(
      p.sendBatch({
        acks: -1,
        timeout: Math.max(1, remaining()),
        topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list.map((e) => ({ key: e.key, value: e.value, headers: e.headers })) })),
      }),
      remaining(),
      timeout,
    );
  }

  return {
    async publish(events) {
      if (closed) throw new Error('sink closed');
      if (events.length === 0) return { sent: [], failed: [] };
      const deadline = Date.now() + opts.timeoutMs;
      try {
        await send(events, deadline);
        return { sent: events.map((e) => e.id), failed: [] };
      } catch (err) {
        // Any failure may leave the idempotent producer's sequence numbers out of step with the
        // broker (the next send would get OUT_OF_ORDER_SEQUENCE_NUMBER): start a fresh producer.
        reset();
        if (!isRecordRejected(err) || events.length === 1) return { sent: [], failed: events.map((e) => ({ id: e.id, error: err })) };
        // Isolate the poison record(s): one by one, within what is left of the same deadline.
        const result: PublishResult = { sent: [], failed: [] };
        for (const e of events) {
          try {
            await send([e], deadline);
            result.sent.push(e.id);
          } catch (one) {
            result.failed.push({ id: e.id, error: one });
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
      if (p) await withTimeout(p.disconnect(), 5000, () => new Error('disconnect timed out')).catch(() => undefined);
    },
  };
}
