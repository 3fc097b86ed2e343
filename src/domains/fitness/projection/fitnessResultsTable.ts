// The fitness_results projection table, written once: its row (what the decoder produces and the
// projector writes) and its columns in the migration's order (migrations/clickhouse/002). Every other
// column list, decimal scale and field-to-column map of this table is derived from this spec
// (src/domains/contract/projectionColumns.ts). Every column is written because ClickHouse 18.16 does
// not apply DEFAULTs to fields a JSONEachRow insert omits.
import type { ProjectionRowBase } from '../../contract/decoded';
import { changedByColumn, dateTime, decimal, string, uint, type ProjectionTable } from '../../contract/projectionTable';
import { RESULT_SCALE } from '../decimal';
import type { FitnessResultState } from '../types';

/**
 * One fitness_results row: the event's state fields, its times as epoch ms, and where it came from.
 * The fields of event schema version 2 hold their empty value for "unknown" (a v1 event, upcast with nulls).
 */
export interface FitnessRow
  extends
    ProjectionRowBase,
    Pick<FitnessResultState, 'dataId' | 'detectId' | 'userId' | 'projectId' | 'schoolId' | 'grade' | 'result' | 'unit' | 'shard'> {
  /** When the test was taken, epoch ms; 0 = unknown. */
  measuredAtMs: number;
  /** The token subject that wrote this version; '' = unknown. */
  changedBy: string;
}

export const FITNESS_RESULTS: ProjectionTable<FitnessRow> = {
  name: 'fitness_results',
  columns: [
    { name: 'data_id', type: uint(64), role: 'key', field: 'dataId', value: (r) => r.dataId },
    { name: 'detect_id', type: uint(64), role: 'content', field: 'detectId', compared: true, value: (r) => r.detectId },
    { name: 'user_id', type: uint(64), role: 'content', field: 'userId', compared: true, value: (r) => r.userId },
    { name: 'project_id', type: uint(64), role: 'content', field: 'projectId', compared: true, value: (r) => r.projectId },
    { name: 'school_id', type: uint(64), role: 'content', field: 'schoolId', compared: true, value: (r) => r.schoolId },
    { name: 'grade', type: uint(16), role: 'content', field: 'grade', compared: true, value: (r) => r.grade },
    { name: 'result', type: decimal(RESULT_SCALE), role: 'content', field: 'result', compared: true, value: (r) => r.result },
    { name: 'unit', type: string, role: 'content', field: 'unit', compared: true, value: (r) => r.unit },
    { name: 'version', type: uint(64), role: 'version', field: 'version', value: (r) => r.version },
    { name: 'is_deleted', type: uint(8), role: 'isDeleted', field: 'isDeleted', value: (r) => (r.isDeleted ? 1 : 0) },
    { name: 'created_at', type: dateTime, role: 'time', value: (r) => r.createdAtMs },
    { name: 'created_at_ms', type: uint(64), role: 'time', field: 'createdAt', compared: true, value: (r) => r.createdAtMs },
    { name: 'source_commit_at', type: dateTime, role: 'time', value: (r) => r.sourceCommitMs },
    // The source commit time of this version: a replay that kept the version but not its time is wrong.
    { name: 'source_commit_ms', type: uint(64), role: 'time', field: 'updatedAt', compared: true, value: (r) => r.sourceCommitMs },
    { name: 'ingested_at', type: dateTime, role: 'time', value: (r) => r.ingestedAtMs },
    { name: 'ingested_at_ms', type: uint(64), role: 'time', field: 'ingestedAt', value: (r) => r.ingestedAtMs },
    { name: 'event_id', type: string, role: 'provenance', value: (r) => r.eventId },
    // Read back (the view's shard), not compared: the source's shard is where the row is, not a field.
    { name: 'shard', type: uint(16), role: 'content', field: 'shard', value: (r) => r.shard },
    { name: 'kafka_partition', type: uint(32), role: 'provenance', value: (r) => r.kafkaPartition },
    { name: 'kafka_offset', type: uint(64), role: 'provenance', value: (r) => r.kafkaOffset },
    // Event schema version 2 (migrations/clickhouse/007). Not compared: a reconciliation digest compares the
    // business content every schema version carries, so a row projected from a v1 event (these unknown)
    // must not differ from its source: canonical digests ignore the representation version.
    {
      name: 'measured_at_ms',
      type: uint(64),
      role: 'time',
      field: 'measuredAt',
      compared: false,
      emptyIsUnknown: true,
      value: (r) => r.measuredAtMs,
    },
    changedByColumn(),
  ],
  segment: 'toString(project_id)',
};
