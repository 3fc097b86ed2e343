// The shapes the projector writes besides the projection rows (whose types and tables belong to their
// domains: src/domains/<domain>/projection/): checkpoints, dead letters and expired offset ranges.
import type { DeadLetterReason, ProjectionRowBase } from '../domains/contract/decoded';
import type { Projection } from '../domains/contract/projection';
import type { Domain } from '../publication/event';

/** A mapped message: its row and the projection (table) it belongs to. */
export interface ProjectedRow {
  projection: Projection;
  row: ProjectionRowBase;
}

/** What the projector has applied for one topic partition (a projection_checkpoints row). */
export interface Checkpoint {
  topic: string;
  partition: number;
  /** The next offset to consume: every message before it is in ClickHouse or on the dead-letter topic. */
  nextOffset: string;
  /** Highest source commit time applied in this flush (0 when none). */
  sourceCommitMs: number;
}

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
