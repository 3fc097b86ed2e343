// The agreed fitness event: a full snapshot of one version. eventId is stable per (dataId, version)
// so a retry, a relay reclaim or a repair re-sends the very same event; Kafka key = dataId keeps one
// result's versions in one partition.
import type { DomainEvent } from '../../publication/event';
import type { FitnessEventType, FitnessResultState } from './types';

/**
 * The state of one version on the wire (eventContract.ts): times as ISO-8601 UTC strings; the shard
 * travels in the envelope. Schema version 2 adds who wrote it (changedBy) and when the test was taken.
 */
export type FitnessEventData = Omit<FitnessResultState, 'createdAt' | 'updatedAt' | 'shard' | 'changedBy' | 'measuredAt'> & {
  createdAt: string;
  updatedAt: string;
  changedBy?: string | null;
  measuredAt?: string | null;
  [key: string]: unknown;
};

export function fitnessEventId(dataId: number, version: number): string {
  return `fitness-result-${dataId}-v${version}`;
}

/**
 * The event of one version in `schemaVersion` (what every live reader reads: src/publication/
 * schemaVersions.ts). Version 1 carries nothing about who wrote it or when the test was taken.
 */
export function fitnessEvent(
  type: FitnessEventType,
  s: Omit<FitnessResultState, 'changedBy'> & Partial<Pick<FitnessResultState, 'changedBy'>>,
  schemaVersion: number,
): DomainEvent<FitnessEventData> {
  const v1 = {
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
  };
  return {
    eventId: fitnessEventId(s.dataId, s.version),
    domain: 'fitness',
    type,
    aggregateId: String(s.dataId),
    version: s.version,
    schemaVersion,
    isDeleted: s.isDeleted,
    occurredAt: s.updatedAt,
    shard: s.shard,
    data: schemaVersion >= 2 ? { ...v1, changedBy: s.changedBy ?? null, measuredAt: s.measuredAt?.toISOString() ?? null } : v1,
  };
}
