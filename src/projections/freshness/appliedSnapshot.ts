// What the projector has applied, as the freshness marker reads it from ClickHouse, in the order that
// makes it consistent: the checkpoints FIRST, then (in parallel) the expired offset ranges and the
// unresolved dead letters. The projector writes a flush's data, dead letters and expired ranges
// before the checkpoint that moves past them (projectionWriter.ts), so whatever a checkpoint read here
// calls applied has its rows, its dead letters and its expired ranges visible to every read that
// starts after it: the dead-letter and expired reads here, and the data read of the request. (Read in
// parallel, as before, an expired range or a dead letter written between the two reads could be
// missed while the checkpoint past it was seen: FRESH over a gap.)
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Domain } from '../../publication/event';
import { unappliedMessages } from '../offsetLag';
import { openExpiredByPartition } from '../sql/readExpiredOffsets';
import { decodeDeadLetter, type DeadLetterFacts } from './deadLetterScope';
import { readCheckpoints, type AppliedPosition } from './sql/readCheckpoints';
import { readUnresolvedDeadLetters } from './sql/readUnresolvedDeadLetters';

/** More unresolved dead letters than this in one domain: the marker treats them as anyone's. */
export const DEAD_LETTERS_READ_LIMIT = 1000;

export interface AppliedSnapshot {
  positions: Map<number, AppliedPosition>;
  /** Offsets expired on Kafka before they were applied, not yet reconciled, per partition. */
  expired: Map<number, number>;
  deadLetters: DeadLetterFacts;
}

export async function readAppliedSnapshot(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  topic: string,
  domain: Domain,
): Promise<AppliedSnapshot> {
  const applied = await readCheckpoints(ch, database, consumer, topic);
  const [expired, dead] = await Promise.all([
    openExpiredByPartition(ch, database, consumer, topic),
    readUnresolvedDeadLetters(ch, database, consumer, domain, DEAD_LETTERS_READ_LIMIT + 1),
  ]);
  return {
    positions: new Map(applied.map((p) => [p.partition, p])),
    expired,
    deadLetters: { rows: dead.slice(0, DEAD_LETTERS_READ_LIMIT).map(decodeDeadLetter), truncated: dead.length > DEAD_LETTERS_READ_LIMIT },
  };
}

/** True when the snapshot had applied every offset below `ends` on each of these partitions. */
export function covers(s: AppliedSnapshot, ends: readonly { partition: number; low: bigint; high: bigint }[]): boolean {
  return ends.every((e) => unappliedMessages(e, s.positions.get(e.partition)?.nextOffset) === 0);
}
