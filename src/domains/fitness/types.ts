// The fitness result aggregate and the commands that change it. A result belongs to a student
// (userId) in a test campaign (detectId) for one test item (projectId); detectId, userId, projectId
// and grade never change across versions; corrections change result and unit, and may move the
// result to another school (a student who changed school), so schoolId is the latest version's and
// write scopes are checked against it; deletion ends the aggregate with a versioned tombstone.

export interface FitnessResultState {
  dataId: number;
  detectId: number;
  userId: number;
  projectId: number;
  schoolId: number;
  grade: number;
  /** Canonical decimal, exactly 3 decimals, e.g. "2.310". */
  result: string;
  unit: string;
  version: number;
  isDeleted: boolean;
  createdAt: Date;
  /** Source commit time of this version (the shard's clock). */
  updatedAt: Date;
  /** Shard index the result lives on (dataId % 100). */
  shard: number;
  /**
   * Token subject that wrote this version (the deleter for a tombstone); null for versions written
   * before it was recorded. In the event from schema version 2.
   */
  changedBy: string | null;
  /** When the test was taken, if the teacher said (event schema version 2); absent: unknown. */
  measuredAt?: Date | null;
}

export interface RecordFitnessResult {
  kind: 'record';
  detectId: number;
  userId: number;
  projectId: number;
  schoolId: number;
  grade: number;
  result: string;
  unit: string;
  /** When the test was taken (validated against the shard clock); omitted: unknown. */
  measuredAt?: Date;
  /** Client key, unique per caller: a retry by the same principal with the same key returns the first result. */
  idempotencyKey?: string;
}

export interface CorrectFitnessResult {
  kind: 'correct';
  dataId: number;
  expectedVersion: number;
  result: string;
  unit: string;
  /** Moves the result to this school (a student who changed school); unchanged when omitted. */
  schoolId?: number;
  /** When the test was taken; omitted: the previous version's value is kept. */
  measuredAt?: Date;
}

export interface DeleteFitnessResult {
  kind: 'delete';
  dataId: number;
  expectedVersion: number;
}

export type FitnessCommand = RecordFitnessResult | CorrectFitnessResult | DeleteFitnessResult;

export type FitnessEventType = 'FitnessResultRecorded' | 'FitnessResultCorrected' | 'FitnessResultDeleted';
