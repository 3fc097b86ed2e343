// FitnessResultRecorded | FitnessResultCorrected | FitnessResultDeleted -> one fitness_results row.
// Pure. The row keeps the event's own version (never a delivery counter) so ReplacingMergeTree and
// argMax pick the business-latest state whatever order the versions arrive in. Checks reject events
// that could not be stored faithfully (a result needing rounding, ids beyond safe integers, times
// ClickHouse cannot hold) or that contradict themselves (envelope vs data).
import { z } from 'zod';
import { canonicalDecimal } from '../../../shared/decimal';
import { isoToMs } from '../../contract/clickHouseTime';
import { rejected } from '../../contract/decoded';
import { eventDecoder } from '../../contract/eventDecoder';
import { decimalScale } from '../../contract/projectionColumns';
import { FITNESS_RESULTS, type FitnessRow } from './fitnessResultsTable';

export const FITNESS_EVENT_TYPES: ReadonlySet<string> = new Set([
  'FitnessResultRecorded',
  'FitnessResultCorrected',
  'FitnessResultDeleted',
]);
const RESULT = decimalScale(FITNESS_RESULTS, 'result');

const id = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const dataSchema = z.object({
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

/** The fitness decoder: a JSON value in, its fitness_results row or the first thing wrong out. */
export const fitnessDecoder = eventDecoder<typeof dataSchema, FitnessRow>({
  domain: 'fitness',
  label: 'fitness',
  eventTypes: FITNESS_EVENT_TYPES,
  data: dataSchema,
  row(e, d, at, ingestedAtMs) {
    const result = canonicalDecimal(d.result, RESULT);
    if (result === undefined) return rejected('INVALID_DATA', `data.result (not a decimal with at most ${RESULT} fraction digits)`);
    const createdAtMs = isoToMs(d.createdAt);
    const sourceCommitMs = isoToMs(d.updatedAt);
    if (createdAtMs === undefined) return rejected('INVALID_DATA', 'data.createdAt (not an ISO-8601 time ClickHouse can store)');
    if (sourceCommitMs === undefined) return rejected('INVALID_DATA', 'data.updatedAt (not an ISO-8601 time ClickHouse can store)');
    const mismatches = [
      String(d.dataId) !== e.aggregateId && 'aggregateId != data.dataId',
      d.version !== e.version && 'version != data.version',
      d.isDeleted !== e.isDeleted && 'isDeleted != data.isDeleted',
      (e.type === 'FitnessResultDeleted') !== d.isDeleted && `${e.type} with isDeleted ${d.isDeleted}`,
    ].filter(Boolean);
    if (mismatches.length) return rejected('INCONSISTENT_EVENT', mismatches.join(', '));
    return {
      ok: true,
      value: {
        dataId: d.dataId,
        detectId: d.detectId,
        userId: d.userId,
        projectId: d.projectId,
        schoolId: d.schoolId,
        grade: d.grade,
        result,
        unit: d.unit,
        version: d.version,
        isDeleted: d.isDeleted,
        createdAtMs,
        sourceCommitMs,
        ingestedAtMs,
        eventId: e.eventId,
        shard: e.shard,
        ...at,
      },
    };
  },
});
