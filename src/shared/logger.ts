// Structured JSON logs (pino). Log objects, not interpolated strings; never log payloads or secrets
// (redactLogRecord removes what slips through: nested and camelCase secret keys, SQL, bound values).
import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import { REDACTED, redactLogRecord } from './redact';

export type { Logger };

// Where a logger made without a destination writes: stdout in every process Tidemark runs as. A test
// run that captures logs (test/support/logCapture.ts) points it at a file per suite, so the roles the
// suites start in-process write where the leak check reads, not into jest's output.
let defaultDestination: pino.DestinationStream | undefined;

export function setDefaultLogDestination(destination: pino.DestinationStream | undefined): void {
  defaultDestination = destination;
}

export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  destination: pino.DestinationStream | undefined = defaultDestination,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: redactLogRecord({ service: 'tidemark', ...bindings }),
    timestamp: pino.stdTimeFunctions.isoTime,
    // Lines written inside a traced operation carry its ids, so logs and traces meet.
    mixin() {
      const span = trace.getActiveSpan()?.spanContext();
      return span && span.traceFlags ? { trace_id: span.traceId, span_id: span.spanId } : {};
    },
    // Every record, at any depth: secrets, drivers' SQL with bound values, quoted values in error texts.
    formatters: { log: redactLogRecord },
    redact: { paths: ['*.password', '*.token', '*.authorization', 'req.headers.authorization', '*.payload'], censor: REDACTED },
  };
  const logger = destination ? pino(options, destination) : pino(options);
  // Bindings are written on every line of a child logger, past the log formatter (pino resets the
  // bindings formatter for children): a customerId bound to a child was written as it was. They are
  // redacted here, for every descendant too: a child is an Object.create of its parent, so finds this.
  const child = logger.child;
  logger.child = function <L extends string = never>(this: Logger, bindings: pino.Bindings, o?: pino.ChildLoggerOptions<L>) {
    return Reflect.apply(child, this, [redactLogRecord(bindings), o]) as pino.Logger<L>;
  };
  return logger;
}

export const silentLogger: Logger = pino({ level: 'silent' });
