// Two helpers of the projector's batch handler: waiting on a flush (or a lookup) while heartbeating, and
// the per-message trace spans of the apply.
import type { KafkaMessage } from 'kafkajs';
import { sleep } from '../shared/lifecycle';
import { failSpan, SpanKind, startSpanFrom, tracingEnabled, type Span } from '../shared/tracing';

const HEARTBEAT_EVERY_MS = 3000;

/** Waits for the flush (or a lookup), heartbeating meanwhile so a long outage does not evict the member. */
export async function awaitWithHeartbeat<T>(applied: Promise<T>, heartbeat: () => Promise<void>): Promise<T> {
  let settled = false;
  const done = applied.finally(() => {
    settled = true;
  });
  done.catch(() => undefined);
  while (!settled) {
    const tick = new AbortController();
    await Promise.race([done, sleep(HEARTBEAT_EVERY_MS, tick.signal)]).finally(() => tick.abort());
    if (!settled) await heartbeat();
  }
  return done;
}

/**
 * With tracing on, a `projector.insert` span per message that carries a traceparent (the relay's send,
 * or the direct send), from consumption until ClickHouse acknowledged the flush holding it: the last
 * span of the write's trace.
 */
export function traceApplies(topic: string, partition: number, messages: KafkaMessage[]): { end(err?: unknown): void } {
  if (!tracingEnabled()) return { end: () => undefined };
  const spans: Span[] = [];
  for (const m of messages) {
    const tp = m.headers?.traceparent?.toString();
    const attributes = {
      'messaging.destination.name': topic,
      'messaging.destination.partition.id': String(partition),
      'messaging.kafka.offset': Number(m.offset),
    };
    const span = startSpanFrom(tp, 'projector.insert', { kind: SpanKind.CONSUMER, attributes });
    if (span) spans.push(span);
  }
  return {
    end(err) {
      for (const s of spans) {
        if (err) failSpan(s, err);
        s.end();
      }
    },
  };
}
