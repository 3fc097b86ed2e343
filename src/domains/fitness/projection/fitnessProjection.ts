// The fitness domain's projection as one value: fitness_results, fed by the domain's topic.
import type { Projection } from '../../contract/projection';
import { fitnessDecoder } from './fitnessDecoder';
import { FITNESS_RESULTS, type FitnessRow } from './fitnessResultsTable';

export const fitnessProjection: Projection<FitnessRow> = {
  domain: 'fitness',
  table: FITNESS_RESULTS,
  decoder: fitnessDecoder,
};
