// A fitness result as the read model returns it: the latest non-deleted version read back from
// fitness_results, mapped by the table's spec (contract/latestView.ts). Kept with the domain so the
// GraphQL layer and the read service share one shape.
import { viewOf } from '../../contract/latestView';
import { FITNESS_RESULTS } from '../projection/fitnessResultsTable';
import type { FitnessResultState } from '../types';
import type { LatestFitnessRow } from './latestFitness';

/**
 * A result's latest state as read back from the projection (dataId as text, plus when it was ingested).
 * measuredAt and changedBy are null when unknown (a version projected from a schema version 1 event).
 */
export interface FitnessView extends Omit<FitnessResultState, 'dataId' | 'isDeleted' | 'changedBy' | 'measuredAt'> {
  dataId: string;
  ingestedAt: Date;
  measuredAt: Date | null;
  changedBy: string | null;
}

export const toFitnessView = (r: LatestFitnessRow): FitnessView => viewOf(FITNESS_RESULTS, r) as unknown as FitnessView;
