// The OpenTelemetry SDK, installed for this process when TRACING_EXPORTER is `otlp` (off by default):
// spans go in batches to an OTLP/HTTP receiver (a collector, Jaeger, Tempo) at TRACING_OTLP_URL, with
// W3C trace-context propagation and AsyncLocalStorage context (NodeTracerProvider.register), sampled
// by TRACING_SAMPLE_RATIO (parent-based: a sampled write stays sampled in every process it crosses).
// `stop()` flushes what is buffered and uninstalls the provider, so a process (or a test) can start
// another Tidemark afterwards.
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import type { Settings } from '../config/settings';
import type { Stoppable } from '../shared/lifecycle';
import { setTracingEnabled } from '../shared/tracing';
import { packageVersion } from './packageVersion';

export function startTracing(s: Settings, instanceId: string): Stoppable {
  if (s.tracingExporter === 'none') return { stop: async () => undefined };
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': s.tracingServiceName,
      'service.version': packageVersion(),
      'service.instance.id': instanceId,
      'process.pid': process.pid,
      'tidemark.roles': s.roles.join(','),
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(s.tracingSampleRatio) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: s.tracingOtlpUrl }), { scheduledDelayMillis: 500 })],
  });
  provider.register();
  setTracingEnabled(true);
  return {
    async stop() {
      setTracingEnabled(false);
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
