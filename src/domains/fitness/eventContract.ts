// The fitness event contract: the data of FitnessResultRecorded | Corrected | Deleted in each schema
// version, and the upcaster between them. The rules live here once: the projector decodes by them and
// schema/events/fitness/ is generated from them (npm run events:check). A version only adds fields.
import { z } from 'zod';
import type { EventContract } from '../contract/eventContract';

export const FITNESS_EVENT_TYPES: ReadonlySet<string> = new Set([
  'FitnessResultRecorded',
  'FitnessResultCorrected',
  'FitnessResultDeleted',
]);

const id = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Version 1: one result version's state; times as ISO-8601 UTC strings. */
const v1 = z.object({
  dataId: id.min(1),
  detectId: id,
  userId: id,
  projectId: id,
  schoolId: id,
  grade: z.number().int().min(0).max(65535),
  result: z.string().max(40),
  unit: z.string().min(1).max(32),
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  isDeleted: z.boolean(),
  createdAt: z.string().max(64),
  updatedAt: z.string().max(64),
});

/**
 * Version 2 adds who made the change (the token subject; null for versions written before it was
 * recorded) and when the test was taken (ISO-8601, null when the teacher did not say).
 */
const v2 = v1.extend({
  changedBy: z.string().min(1).max(200).nullable(),
  measuredAt: z.string().max(64).nullable(),
});

export type FitnessEventSchema = typeof v2;
export type FitnessEventDataV2 = z.output<typeof v2>;

export const FITNESS_EVENT_CONTRACT: EventContract<typeof v2> = {
  domain: 'fitness',
  label: 'fitness',
  eventTypes: FITNESS_EVENT_TYPES,
  versions: [v1, v2],
  // A version-1 event never said who or when: both are unknown, not invented.
  upcasters: [{ from: 1, to: 2, up: (d) => ({ ...d, changedBy: null, measuredAt: null }) }],
};
