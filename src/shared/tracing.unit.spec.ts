// Tracing helpers with a real SDK and an in-memory exporter: spans nest through async code, a
// traceparent round-trips (stored, then continued elsewhere), errors mark the span, log lines written
// inside a span carry its ids, and with tracing off nothing is recorded or propagated.
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { createLogger } from './logger';
import { currentTraceparent, setTracingEnabled, SpanKind, startSpanFrom, traceparentOfSpan, withSpan } from './tracing';

describe('tracing helpers', () => {
  const exporter = new InMemorySpanExporter();
  let provider: NodeTracerProvider;

  beforeAll(() => {
    provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
  });
  afterAll(async () => {
    setTracingEnabled(false);
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => {
    exporter.reset();
    setTracingEnabled(true);
  });

  it('nests spans through async code and continues a stored traceparent as a child', async () => {
    let stored: string | undefined;
    await withSpan('graphql', {}, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await withSpan('db.transaction', {}, async () => {
        stored = currentTraceparent();
      });
    });
    expect(stored).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const send = startSpanFrom(stored, 'relay.send', { kind: SpanKind.PRODUCER })!;
    const header = traceparentOfSpan(send);
    send.end();
    startSpanFrom(header, 'projector.insert', { kind: SpanKind.CONSUMER })!.end();
    const spans = exporter.getFinishedSpans();
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(byName['db.transaction']!.parentSpanContext?.spanId).toBe(byName.graphql!.spanContext().spanId);
    expect(byName['relay.send']!.parentSpanContext?.spanId).toBe(byName['db.transaction']!.spanContext().spanId);
    expect(byName['projector.insert']!.parentSpanContext?.spanId).toBe(byName['relay.send']!.spanContext().spanId);
  });

  it('marks a span whose work threw, and ends it', async () => {
    await expect(withSpan('failing', {}, async () => Promise.reject(new TypeError('boom')))).rejects.toThrow('boom');
    expect(exporter.getFinishedSpans()[0]).toMatchObject({ name: 'failing', status: { code: 2, message: 'TypeError' } });
  });

  it('puts the trace and span ids on log lines written inside a span', async () => {
    const lines: string[] = [];
    const log = createLogger('info', {}, { write: (l: string) => void lines.push(l) });
    let traceId = '';
    await withSpan('request', {}, async (span) => {
      traceId = span.spanContext().traceId;
      log.info('inside');
    });
    log.info('outside');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'inside', trace_id: traceId });
    expect(JSON.parse(lines[1]!).trace_id).toBeUndefined();
  });

  it('records and propagates nothing when tracing is off', async () => {
    setTracingEnabled(false);
    await withSpan('off', {}, async () => {
      expect(currentTraceparent()).toBeUndefined();
    });
    expect(startSpanFrom('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x', {})).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
