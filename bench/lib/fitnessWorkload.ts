// The fitness write workload shared by the write-path and end-to-end rows: valid new results for
// distinct students (so they spread over the shards by the routing rule), and the mutation text.
import { shardForUser } from '../../src/domains/fitness/sharding';

export const RECORD_MUTATION = `mutation Record($input: RecordFitnessResultInput!) {
  recordFitnessResult(input: $input) { result { dataId version } publication { state } }
}`;

export interface RecordInput {
  detectId: number;
  userId: number;
  projectId: number;
  schoolId: number;
  grade: number;
  result: string;
  unit: string;
}

/** The n-th result of a run: standing long jump in metres, a different student each time. */
export function recordInput(n: number, userBase = 1_000_000): RecordInput {
  const userId = userBase + n;
  return {
    detectId: 10001 + (n % 10),
    userId,
    projectId: 3,
    schoolId: 100 + (n % 300),
    grade: 1 + (n % 12),
    result: `${1 + (n % 3)}.${String(n % 1000).padStart(3, '0')}`,
    unit: 'm',
  };
}

/** The same row as the write path inserts into fitness_results (raw ceiling), and its shard. */
export function rawResultRow(input: RecordInput, dataId: number, shardCount: number, now: Date): { shard: number; values: unknown[] } {
  return {
    shard: shardForUser(input.userId, shardCount),
    values: [dataId, input.detectId, input.userId, input.projectId, input.schoolId, input.grade, input.result, input.unit, 1, now, now],
  };
}

export const RAW_INSERT_RESULT =
  'INSERT INTO fitness_results (data_id, detect_id, user_id, project_id, school_id, grade, result, unit, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
