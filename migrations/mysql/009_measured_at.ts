// When a fitness test was taken (event schema version 2: data.measuredAt), on each fitness shard.
//
// `measured_at` on fitness_results is the time the teacher gave for the current version (a correction
// without one keeps the previous value); the deletion log keeps the last live state's. NULL = not said,
// and every row written before this migration. DATETIME(3) in UTC like created_at/updated_at (every
// pooled connection runs with time_zone '+00:00'), so the event's ISO-8601 text round-trips exactly.
//
// Dialect: MariaDB/MySQL. A nullable column without a default appended at the end is an in-place,
// instant ADD COLUMN on current InnoDB (no table rebuild); no index: nothing selects by it.
import type { KnexMigration } from '../types';

export const m009MeasuredAt: KnexMigration = {
  name: '009_measured_at',
  async up(db) {
    await db.raw('ALTER TABLE fitness_results ADD COLUMN measured_at DATETIME(3) NULL');
    await db.raw('ALTER TABLE fitness_result_deletions ADD COLUMN measured_at DATETIME(3) NULL');
  },
  async down(db) {
    await db.raw('ALTER TABLE fitness_result_deletions DROP COLUMN measured_at');
    await db.raw('ALTER TABLE fitness_results DROP COLUMN measured_at');
  },
};
