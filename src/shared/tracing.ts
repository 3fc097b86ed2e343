// Tracing through the OpenTelemetry API only (the SDK is set up by src/app/tracing.ts when
// TRACING_EXPORTER is not `none`; without it every call here is a no-op and costs next to nothing).
// One write is one trace across processes: the GraphQL request's span is the parent of its
// transaction; the transaction's W3C `traceparent` is stored with the outbox or publication row; the
// relay continues it for its send and puts its own `traceparent` on the Kafka message; the projector
// continues that for the insert that applies the event.
import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';

export { SpanKind };
export type { Span };

export const tracer = trace.getTracer('tidemark');

let enabled = false;

/** True while an exporting tracer provider is installed (per-record spans are only made then). */
export function tracingEnabled(): boolean {
  return enabled;
}

export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

/** Runs `fn` in a new active span; the span records a thrown error and always ends. */
export async function withSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  if (!enabled) return fn(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

export function failSpan(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
}

/** The W3C traceparent of the active span (to store with a row or send as a header), if any. */
export function currentTraceparent(ctx: Context = context.active()): string | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** A context whose parent is the span a traceparent names (a row's, a message header's, a request's). */
export function contextFromTraceparent(traceparent: string | undefined, base: Context = context.active()): Context | undefined {
  if (!traceparent) return undefined;
  const ctx = propagation.extract(base, { traceparent });
  return trace.getSpanContext(ctx) ? ctx : undefined;
}

/** Starts a span continuing `traceparent` (not made active); undefined when tracing is off or there is none. */
export function startSpanFrom(traceparent: string | undefined, name: string, options: SpanOptions): Span | undefined {
  if (!enabled) return undefined;
  const parent = contextFromTraceparent(traceparent);
  return parent ? tracer.startSpan(name, options, parent) : undefined;
}

/** The traceparent naming `span` (for the header of the message it sends). */
export function traceparentOfSpan(span: Span): string | undefined {
  return currentTraceparent(trace.setSpan(context.active(), span));
}
