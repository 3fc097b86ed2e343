// FitnessResultRecorded | FitnessResultCorrected | FitnessResultDeleted -> one fitness_results row.
// Pure. The row keeps the event's own version (never a delivery counter) so ReplacingMergeTree and
// argMax pick the business-latest state whatever order the versions arrive in. Checks reject events
// that could not be stored faithfully (a result needing rounding, ids beyond safe integers, times
// ClickHouse cannot hold) or that contradict themselves (envelope vs data).
import { canonicalDecimal } from '../../../shared/decimal';
import { isoToMs } from '../../contract/clickHouseTime';
import { rejected } from '../../contract/decoded';
import { eventDecoder } from '../../contract/eventDecoder';
import { decimalScale } from '../../contract/projectionColumns';
import { FITNESS_EVENT_CONTRACT, type FitnessEventSchema } from '../eventContract';
import { FITNESS_RESULTS, type FitnessRow } from './fitnessResultsTable';

const RESULT = decimalScale(FITNESS_RESULTS, 'result');

/** The fitness decoder: a JSON value in, its fitness_results row or the first thing wrong out. */
export const fitnessDecoder = eventDecoder<FitnessEventSchema, FitnessRow>({
  contract: FITNESS_EVENT_CONTRACT,
  row(e, d, at, ingestedAtMs) {
    const result = canonicalDecimal(d.result, RESULT);
    if (result === undefined) return rejected('INVALID_DATA', `data.result (not a decimal with at most ${RESULT} fraction digits)`);
    const createdAtMs = isoToMs(d.createdAt);
    const sourceCommitMs = isoToMs(d.updatedAt);
    if (createdAtMs === undefined) return rejected('INVALID_DATA', 'data.createdAt (not an ISO-8601 time ClickHouse can store)');
    if (sourceCommitMs === undefined) return rejected('INVALID_DATA', 'data.updatedAt (not an ISO-8601 time ClickHouse can store)');
    // Version 2 fields (a v1 event arrives upcast with nulls): null becomes the column's "unknown" (0, '').
    const measuredAtMs = d.measuredAt === null ? 0 : isoToMs(d.measuredAt);
    if (measuredAtMs === undefined) return rejected('INVALID_DATA', 'data.measuredAt (not an ISO-8601 time ClickHouse can store)');
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
        measuredAtMs,
        changedBy: d.changedBy ?? '',
        ...at,
      },
    };
  },
});
