// The erasure guard learns pseudonymisation (a customer's orders keep their financial rows): a guard
// row with a pseudonym tells every writer to REWRITE the aggregate's subject column with it instead of
// dropping the aggregate ('' : the aggregate is erased, the writers drop it, as before).
//   DEFAULT '': the rows written before this migration are deletions, which is what they were.
//   A plain ADD COLUMN (no IF NOT EXISTS: 18.16 lacks it; the migration runs once, by version); on a
//   cluster the local tables, then the Distributed one created again (layout.alterColumnStatements).
//   The pseudonym holds no personal value: 'anon-' and a prefix of the keyed hash of the subject.
import type { ClickHouseMigration } from '../types';

/** The table's sharding key (migration 5): the Distributed table is recreated with it on a cluster. */
const SHARDING_KEY = 'cityHash64(domain, aggregate_id)';

export const ch006ErasedAggregatesPseudonym: ClickHouseMigration = {
  version: 6,
  name: 'erased_aggregates_pseudonym',
  down: (t) => [...t.alter('erased_aggregates', 'DROP COLUMN pseudonym', SHARDING_KEY)],
  statements: (t) => [...t.alter('erased_aggregates', "ADD COLUMN pseudonym String DEFAULT ''", SHARDING_KEY)],
};
