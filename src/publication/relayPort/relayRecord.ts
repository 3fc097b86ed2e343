// A claimed row of either publication table as the relay engine handles it. Both tables store the
// Kafka record in the same columns (topic, message_key, message_value, headers, traceparent); they
// differ only in how attempts are counted and which state the row was claimed from, which the table
// adapters pass in.
import type { ObservedState } from '../stateChanges/stateChange';
import type { Domain } from '../event';
import type { RelayRecord } from './publicationTable';

/** The columns both tables' claims select (each adds how it counts attempts and its state). */
export const CLAIMED_COLUMNS = [
  'id',
  'event_id',
  'domain',
  'aggregate_id',
  'version',
  'topic',
  'message_key',
  'message_value',
  'headers',
  'traceparent',
] as const;

export interface ClaimedRowColumns {
  id: number | string;
  event_id: string;
  domain: string;
  aggregate_id: string;
  version: number;
  topic: string;
  message_key: string;
  message_value: string;
  headers: string;
  age_ms: number | string;
  traceparent: string | null;
}

/** Stored headers as Kafka headers: a JSON object of strings (anything else is dropped). */
export function parseHeaders(text: string): Record<string, string> {
  try {
    const o = JSON.parse(text) as unknown;
    if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
    const strings = Object.entries(o as Record<string, unknown>).filter(([, v]) => typeof v === 'string');
    return Object.fromEntries(strings) as Record<string, string>;
  } catch {
    return {};
  }
}

export function relayRecordOf(r: ClaimedRowColumns, o: { attempts: number; from: ObservedState }): RelayRecord {
  return {
    id: Number(r.id),
    eventId: r.event_id,
    domain: r.domain as Domain,
    aggregateId: r.aggregate_id,
    version: Number(r.version),
    topic: r.topic,
    key: r.message_key,
    value: r.message_value,
    headers: parseHeaders(r.headers),
    attempts: o.attempts,
    from: o.from,
    ageMs: Number(r.age_ms),
    traceparent: r.traceparent ?? null,
  };
}
