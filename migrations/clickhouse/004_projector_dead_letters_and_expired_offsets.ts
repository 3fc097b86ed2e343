// Two operator surfaces the projector writes in the same flush as its data, before the checkpoint
// (so they are never lost behind an acknowledged offset):
//   projector_dead_letters      every message the mapping rejected: where it came from, the reason,
//                               eventId and aggregate when decodable, and the message itself (base64)
//                               for a replay; a replay writes the row again with a higher version.
//   projection_expired_offsets  offsets the projector never applied because Kafka's retention deleted
//                               them first (its checkpoint was below the log start): OPEN until a
//                               reconciliation covering the time window is CLEAN, then RESOLVED.
// ReplacingMergeTree(version) keyed by the Kafka position; readers take argMax(..., version), never
// relying on merges. DDL valid on ClickHouse 18.16 and current releases.
import type { ClickHouseMigration } from '../types';

export const ch004ProjectorDeadLettersAndExpiredOffsets: ClickHouseMigration = {
  version: 4,
  name: 'projector_dead_letters_and_expired_offsets',
  down: (t) => [...t.drop('projection_expired_offsets'), ...t.drop('projector_dead_letters')],
  statements: (t) => [
    ...t.create({
      name: 'projector_dead_letters',
      columns: `      consumer String,
      domain String,
      source_topic String,
      source_partition UInt32,
      source_offset UInt64,
      reason String,
      detail String,
      event_id String,
      aggregate_id String,
      dead_at_ms UInt64,
      status String,
      replays UInt32,
      last_replayed_at_ms UInt64,
      last_replayed_by String,
      message_key String,
      message_value String,
      message_headers String,
      version UInt64`,
      engine: 'ReplacingMergeTree(version)',
      orderBy: '(consumer, source_topic, source_partition, source_offset)',
      shardingKey: 'cityHash64(consumer, source_topic, source_partition, source_offset)',
    }),
    ...t.create({
      name: 'projection_expired_offsets',
      columns: `      consumer String,
      domain String,
      topic String,
      partition UInt32,
      from_offset UInt64,
      to_offset UInt64,
      skipped UInt64,
      window_from_ms UInt64,
      window_to_ms UInt64,
      detected_at_ms UInt64,
      status String,
      resolved_at_ms UInt64,
      note String,
      version UInt64`,
      engine: 'ReplacingMergeTree(version)',
      orderBy: '(consumer, topic, partition, from_offset)',
      shardingKey: 'cityHash64(consumer, topic, partition, from_offset)',
    }),
  ],
};
