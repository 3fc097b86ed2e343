// Structured JSON logs (pino). Log objects, not interpolated strings; never log payloads or secrets.
import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'tidemark', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Lines written inside a traced operation carry its ids, so logs and traces meet.
    mixin() {
      const span = trace.getActiveSpan()?.spanContext();
      return span && span.traceFlags ? { trace_id: span.traceId, span_id: span.spanId } : {};
    },
    redact: { paths: ['*.password', '*.token', '*.authorization', 'req.headers.authorization', '*.payload'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

export const silentLogger: Logger = pino({ level: 'silent' });
