import type { ClickHouseMigration } from '../types';
import { ch001ProjectionCheckpoints } from './001_projection_checkpoints';
import { ch002FitnessResults } from './002_fitness_results';
import { ch003Orders } from './003_orders';
import { ch004ProjectorDeadLettersAndExpiredOffsets } from './004_projector_dead_letters_and_expired_offsets';
import { ch005ErasedAggregates } from './005_erased_aggregates';
import { ch006ErasedAggregatesPseudonym } from './006_erased_aggregates_pseudonym';
import { ch007EventV2Fields } from './007_event_v2_fields';

/** Every ClickHouse migration, in version order. Append new ones; never edit applied ones. */
export const clickhouseMigrations: ClickHouseMigration[] = [
  ch001ProjectionCheckpoints,
  ch002FitnessResults,
  ch003Orders,
  ch004ProjectorDeadLettersAndExpiredOffsets,
  ch005ErasedAggregates,
  ch006ErasedAggregatesPseudonym,
  ch007EventV2Fields,
];
