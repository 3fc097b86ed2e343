// A claimed outbox row as the relay handles it: the stored Kafka record and its delivery facts.
import { OUTBOX_TABLE } from '../../publication/outbox/outboxRow';

export { OUTBOX_TABLE };

export interface ClaimedEvent {
  id: number;
  eventId: string;
  domain: string;
  aggregateId: string;
  version: number;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Delivery attempts including the one this claim starts. */
  attempts: number;
  /** The status the row had when it was claimed (NEW, FAILED, or PROCESSING with an expired lease). */
  previousStatus: 'NEW' | 'FAILED' | 'PROCESSING';
}

export interface OutboxRowSelected {
  id: number | string;
  event_id: string;
  domain: string;
  aggregate_id: string;
  version: number;
  topic: string;
  message_key: string;
  message_value: string;
  headers: string;
  attempts: number;
  status: 'NEW' | 'FAILED' | 'PROCESSING';
}

export const SELECTED_COLUMNS = ['id', 'event_id', 'domain', 'aggregate_id', 'version', 'topic', 'message_key', 'message_value', 'headers', 'attempts', 'status'] as const;

function parseHeaders(text: string): Record<string, string> {
  try {
    const o = JSON.parse(text) as unknown;
    if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
    return Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  } catch {
    return {};
  }
}

/** The row as claimed; `attempts` is bumped by one because the claim itself counts as an attempt. */
export function claimedEventOf(r: OutboxRowSelected): ClaimedEvent {
  return {
    id: Number(r.id),
    eventId: r.event_id,
    domain: r.domain,
    aggregateId: r.aggregate_id,
    version: Number(r.version),
    topic: r.topic,
    key: r.message_key,
    value: r.message_value,
    headers: parseHeaders(r.headers),
    attempts: Number(r.attempts) + 1,
    previousStatus: r.status,
  };
}
