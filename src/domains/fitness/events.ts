// The agreed fitness event: a full snapshot of one version. eventId is stable per (dataId, version)
// so a retry, a relay reclaim or a repair re-sends the very same event; Kafka key = dataId keeps one
// result's versions in one partition.
import type { DomainEvent } from '../../publication/event';
import type { FitnessEventType, FitnessResultState } from './types';

export const FITNESS_SCHEMA_VERSION = 1;

/**
 * The state of one version on the wire: times as ISO-8601 UTC strings; the shard travels in the
 * envelope. Who wrote it (changedBy) stays in the store: the event is schemaVersion 1 as it always was.
 */
export type FitnessEventData = Omit<FitnessResultState, 'createdAt' | 'updatedAt' | 'shard' | 'changedBy'> & {
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
};

export function fitnessEventId(dataId: number, version: number): string {
  return `fitness-result-${dataId}-v${version}`;
}

/** Takes the state without changedBy: nothing about who wrote a version can reach the event. */
export function fitnessEvent(type: FitnessEventType, s: Omit<FitnessResultState, 'changedBy'>): DomainEvent<FitnessEventData> {
  return {
    eventId: fitnessEventId(s.dataId, s.version),
    domain: 'fitness',
    type,
    aggregateId: String(s.dataId),
    version: s.version,
    schemaVersion: FITNESS_SCHEMA_VERSION,
    isDeleted: s.isDeleted,
    occurredAt: s.updatedAt,
    shard: s.shard,
    data: {
      dataId: s.dataId,
      detectId: s.detectId,
      userId: s.userId,
      projectId: s.projectId,
      schoolId: s.schoolId,
      grade: s.grade,
      result: s.result,
      unit: s.unit,
      version: s.version,
      isDeleted: s.isDeleted,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    },
  };
}
