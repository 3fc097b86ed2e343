// The fitness result aggregate and the commands that change it. A result belongs to a student
// (userId) in a test campaign (detectId) for one test item (projectId); detectId, userId, projectId,
// schoolId and grade never change across versions, corrections change result and unit, deletion
// ends the aggregate with a versioned tombstone.

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
  /** Client key: a retried request with the same key returns the first result. */
  idempotencyKey?: string;
}

export interface CorrectFitnessResult {
  kind: 'correct';
  dataId: number;
  expectedVersion: number;
  result: string;
  unit: string;
}

export interface DeleteFitnessResult {
  kind: 'delete';
  dataId: number;
  expectedVersion: number;
}

export type FitnessCommand = RecordFitnessResult | CorrectFitnessResult | DeleteFitnessResult;

export type FitnessEventType = 'FitnessResultRecorded' | 'FitnessResultCorrected' | 'FitnessResultDeleted';
