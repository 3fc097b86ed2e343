// The agreed fitness event: a full snapshot of one version. eventId is stable per (dataId, version)
// so a retry, a relay reclaim or a repair re-sends the very same event; Kafka key = dataId keeps one
// result's versions in one partition.
import type { DomainEvent } from '../../publication/event';
import type { FitnessEventType, FitnessResultState } from './types';

export const FITNESS_SCHEMA_VERSION = 1;

/** The state of one version on the wire: times as ISO-8601 UTC strings; the shard travels in the envelope. */
export type FitnessEventData = Omit<FitnessResultState, 'createdAt' | 'updatedAt' | 'shard'> & {
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
};

export function fitnessEventId(dataId: number, version: number): string {
  return `fitness-result-${dataId}-v${version}`;
}

export function fitnessEvent(type: FitnessEventType, s: FitnessResultState): DomainEvent<FitnessEventData> {
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
