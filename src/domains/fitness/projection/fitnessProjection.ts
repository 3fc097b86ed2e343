// The fitness domain's projection as one value: fitness_results, fed by the fitness results topic.
import type { Projection } from '../../contract/projection';
import { fitnessDecoder } from './fitnessDecoder';
import { FITNESS_RESULTS, type FitnessRow } from './fitnessResultsTable';

export const fitnessProjection: Projection<FitnessRow> = {
  domain: 'fitness',
  table: FITNESS_RESULTS,
  decoder: fitnessDecoder,
  topic: (t) => t.fitnessResults,
};
