// What an idempotency key remembers of its first request: a fingerprint of the command (to tell a
// retry from a different request reusing the key) and the first response, replayed as it was.
import { createHash } from 'node:crypto';
import type { FitnessResultState, RecordFitnessResult } from './types';

export function requestHash(c: RecordFitnessResult): string {
  const fields: unknown[] = [c.detectId, c.userId, c.projectId, c.schoolId, c.grade, c.result, c.unit];
  // Appended only when given, so a key stored before measuredAt existed still matches its retry.
  if (c.measuredAt !== undefined) fields.push(c.measuredAt.toISOString());
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

export function serialise(s: FitnessResultState): string {
  return JSON.stringify({
    ...s,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    measuredAt: s.measuredAt?.toISOString() ?? null,
  });
}

export function deserialise(text: string): FitnessResultState {
  const o = JSON.parse(text) as FitnessResultState & { createdAt: string; updatedAt: string; measuredAt?: string | null };
  // Responses stored before changedBy (measuredAt) existed have none.
  return {
    ...o,
    createdAt: new Date(o.createdAt),
    updatedAt: new Date(o.updatedAt),
    changedBy: o.changedBy ?? null,
    measuredAt: o.measuredAt ? new Date(o.measuredAt) : null,
  };
}
