import type { KnexMigration } from '../types';
import { m001ShardIdentity } from './001_shard_identity';
import { m002FitnessResults } from './002_fitness_results';
import { m003OutboxEvents } from './003_outbox_events';
import { m004EventPublications } from './004_event_publications';
import { m005OutboxDueAt } from './005_outbox_due_at';
import { m006PublicationTraceparent } from './006_publication_traceparent';
import { m007WriteOwnership } from './007_write_ownership';
import { m008ErasureIndexes } from './008_erasure_indexes';
import { m009MeasuredAt } from './009_measured_at';

/** Every MySQL (fitness shard) migration, in order. Append new ones; never edit applied ones. */
export const mysqlMigrations: KnexMigration[] = [
  m001ShardIdentity,
  m002FitnessResults,
  m003OutboxEvents,
  m004EventPublications,
  m005OutboxDueAt,
  m006PublicationTraceparent,
  m007WriteOwnership,
  m008ErasureIndexes,
  m009MeasuredAt,
];
