// The result of decoding one event into a projection row: the row, or why not. The reasons are the
// dead-letter reasons the projector records, so a domain's decoder and the projector share one list.
// Details name field paths and check codes, never values, so they can be logged and put on the
// dead-letter message without leaking payload content.

export type DeadLetterReason =
  | 'EMPTY_MESSAGE'
  | 'MALFORMED_JSON'
  | 'INVALID_ENVELOPE'
  | 'UNSUPPORTED_SCHEMA_VERSION'
  | 'WRONG_TOPIC'
  | 'UNKNOWN_EVENT_TYPE'
  | 'INVALID_DATA'
  | 'INCONSISTENT_EVENT';

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: DeadLetterReason; detail: string };

export const rejected = (reason: DeadLetterReason, detail: string): Decoded<never> => ({ ok: false, reason, detail: detail.slice(0, 300) });

/** "data.result (invalid_format), version (too_small)": paths and check codes only. */
export function describeIssues(issues: readonly { path: PropertyKey[]; code: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(root)'} (${i.code})`)
    .join(', ');
}

/** Where a projected row came from in Kafka (a rebuilt row has partition 0, offset 0). */
export interface KafkaPosition {
  kafkaPartition: number;
  kafkaOffset: string;
}

/** What every projection row carries besides its domain's fields. */
export interface ProjectionRowBase extends KafkaPosition {
  version: number;
  isDeleted: boolean;
  createdAtMs: number;
  /** The authoritative store's commit time of this version. */
  sourceCommitMs: number;
  ingestedAtMs: number;
  eventId: string;
}
