// The relay's part of a trace: a `relay.send` span per record whose write was traced, continuing the
// writer's trace, so one trace shows the write, its publish and (through the message) its projection.
import type { PublicationTable, RelayRecord } from '../publication/relayPort/publicationTable';
import { failSpan, SpanKind, startSpanFrom, traceparentOfSpan, tracingEnabled, type Span } from '../shared/tracing';
import type { PublishResult } from './kafkaSink';

/**
 * With tracing on, each record whose write was traced gets a `relay.send` span continuing that trace,
 * and its message carries the span's traceparent (for the projector). Without, the records go as they are.
 */
export function traceSends(table: PublicationTable, records: RelayRecord[]): { records: RelayRecord[]; end(result: PublishResult): void } {
  if (!tracingEnabled()) return { records, end: () => undefined };
  const spans = new Map<number, Span>();
  const out = records.map((r) => {
    const attributes = {
      'messaging.destination.name': r.topic,
      'tidemark.table': table.table,
      'tidemark.event_id': r.eventId,
      'tidemark.attempt': r.attempts,
    };
    const span = startSpanFrom(r.traceparent ?? undefined, 'relay.send', { kind: SpanKind.PRODUCER, attributes });
    if (!span) return r;
    spans.set(r.id, span);
    const traceparent = traceparentOfSpan(span);
    return traceparent ? { ...r, headers: { ...r.headers, traceparent } } : r;
  });
  return {
    records: out,
    end(result) {
      for (const f of result.failed) {
        const span = spans.get(f.id);
        if (span) failSpan(span, f.error);
      }
      for (const span of spans.values()) span.end();
    },
  };
}
