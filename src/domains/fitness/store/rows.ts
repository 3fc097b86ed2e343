// Row <-> state mapping for the fitness tables, and the shard clock. DECIMAL comes back from mysql2
// as a string (decimalNumbers: false) and is canonicalised to 3 decimals; DATETIME(3) columns are
// UTC Dates (every pooled connection runs with time_zone '+00:00'). changed_by/deleted_by say who
// wrote a version (migrations/mysql/007_write_ownership.ts); a tombstone's author is deleted_by.
// measured_at (migrations/mysql/009_measured_at.ts) is when the test was taken, NULL when not said.
import type { Knex } from 'knex';
import { canonicalResult } from '../decimal';
import { shardOfDataId } from '../sharding';
import type { FitnessResultState } from '../types';

export const RESULTS = 'fitness_results';
export const DELETIONS = 'fitness_result_deletions';
export const DATA_IDS = 'fitness_data_ids';
export const IDEMPOTENCY_KEYS = 'fitness_idempotency_keys';

export interface ResultRow {
  data_id: number | string;
  detect_id: number;
  user_id: number;
  project_id: number;
  school_id: number;
  grade: number;
  result: string;
  unit: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  /** NULL on rows written before 007_write_ownership. */
  changed_by?: string | null;
  /** Deletion log only: who wrote the tombstone (changed_by there is the last live state's author). */
  deleted_by?: string | null;
  /** NULL when the teacher did not say, and on rows written before 009_measured_at. */
  measured_at?: Date | null;
}

export function stateOf(row: ResultRow, isDeleted = false): FitnessResultState {
  const dataId = Number(row.data_id);
  return {
    dataId,
    detectId: Number(row.detect_id),
    userId: Number(row.user_id),
    projectId: Number(row.project_id),
    schoolId: Number(row.school_id),
    grade: Number(row.grade),
    result: canonicalResult(String(row.result)),
    unit: row.unit,
    version: Number(row.version),
    isDeleted,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    shard: shardOfDataId(dataId),
    changedBy: (isDeleted ? (row.deleted_by ?? row.changed_by) : row.changed_by) ?? null,
    measuredAt: row.measured_at ? new Date(row.measured_at) : null,
  };
}

export function rowOf(s: FitnessResultState): ResultRow {
  return {
    data_id: s.dataId,
    detect_id: s.detectId,
    user_id: s.userId,
    project_id: s.projectId,
    school_id: s.schoolId,
    grade: s.grade,
    result: s.result,
    unit: s.unit,
    version: s.version,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    changed_by: s.changedBy,
    measured_at: s.measuredAt ?? null,
  };
}

/** The shard's clock, read inside the transaction: event times are the source's commit clock. */
export async function shardNow(trx: Knex.Transaction): Promise<Date> {
  const [rows] = (await trx.raw('SELECT NOW(3) AS now')) as [{ now: Date }[]];
  return new Date(rows[0]!.now);
}
