// The shapes the projector writes. One type per ClickHouse table; every column is present because
// ClickHouse 18.16 does not apply DEFAULTs to fields a JSONEachRow insert omits. Decimals are
// canonical strings ("2.310"), times are epoch milliseconds (the writer derives the DateTime text).
import type { FitnessResultState } from '../domains/fitness/types';
import type { Domain } from '../publication/event';

export interface KafkaPosition {
  kafkaPartition: number;
  kafkaOffset: string;
}

/** One fitness_results row: the event's state fields, its times as epoch ms, and where it came from. */
export interface FitnessRow
  extends
    KafkaPosition,
    Pick<
      FitnessResultState,
      'dataId' | 'detectId' | 'userId' | 'projectId' | 'schoolId' | 'grade' | 'result' | 'unit' | 'version' | 'isDeleted' | 'shard'
    > {
  createdAtMs: number;
  /** The authoritative store's commit time of this version (data.updatedAt). */
  sourceCommitMs: number;
  ingestedAtMs: number;
  eventId: string;
}

export interface OrderItemRow {
  sku: string;
  quantity: number;
  /** Canonical, exactly 4 decimals. */
  unitPrice: string;
}

export interface OrderRow extends KafkaPosition {
  orderId: string;
  customerId: string;
  currency: string;
  /** Canonical, exactly 4 decimals. */
  total: string;
  itemCount: number;
  items: OrderItemRow[];
  version: number;
  isDeleted: boolean;
  createdAtMs: number;
  sourceCommitMs: number;
  ingestedAtMs: number;
  eventId: string;
}

export type ProjectedRow = { table: 'fitness_results'; row: FitnessRow } | { table: 'orders'; row: OrderRow };

/** What the projector has applied for one topic partition (a projection_checkpoints row). */
export interface Checkpoint {
  topic: string;
  partition: number;
  /** The next offset to consume: every message before it is in ClickHouse or on the dead-letter topic. */
  nextOffset: string;
  /** Highest source commit time applied in this flush (0 when none). */
  sourceCommitMs: number;
}

export type DeadLetterReason =
  | 'EMPTY_MESSAGE'
  | 'MALFORMED_JSON'
  | 'INVALID_ENVELOPE'
  | 'UNSUPPORTED_SCHEMA_VERSION'
  | 'WRONG_TOPIC'
  | 'UNKNOWN_EVENT_TYPE'
  | 'INVALID_DATA'
  | 'INCONSISTENT_EVENT';

/** A message the projector cannot map, forwarded unchanged (bytes and headers) with the reason. */
export interface DeadLetter {
  domain: Domain;
  reason: DeadLetterReason;
  /** Safe detail: field paths and check names, never values. */
  detail: string;
  sourceTopic: string;
  sourcePartition: number;
  sourceOffset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | string>;
}

/**
 * Offsets of one partition the projector never applied: Kafka's retention deleted them before they
 * were consumed (the checkpoint was below the partition's log start).
 */
export interface ExpiredRange {
  domain: Domain;
  topic: string;
  partition: number;
  /** The checkpointed next offset: the first message never applied. */
  fromOffset: string;
  /** The log start offset when detected (exclusive end of the range). */
  toOffset: string;
  /** The source commit times the lost events may carry (epoch ms): what a reconciliation must cover. */
  windowFromMs: number;
  windowToMs: number;
  detectedAtMs: number;
}
