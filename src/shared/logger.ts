// Structured JSON logs (pino). Log objects, not interpolated strings; never log payloads or secrets.
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'tidemark', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['*.password', '*.token', '*.authorization', 'req.headers.authorization', '*.payload'], censor: '[redacted]' },
  });
}

export const silentLogger: Logger = pino({ level: 'silent' });
