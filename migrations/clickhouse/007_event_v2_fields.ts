// The fields of event schema version 2 in the projections (docs/fitness.md, docs/orders.md):
//   fitness_results  measured_at_ms UInt64 (epoch ms when the test was taken; 0 = unknown), changed_by String
//   orders           changed_by String, channel String ('web' | 'mobile' | 'store' | 'api')
// '' and 0 stand for "unknown" (a v1 event, upcast with nulls): 18.16 has no Nullable we want in a
// ReplacingMergeTree's hot columns, and the existing times are UInt64 epoch ms too (created_at_ms).
//   DEFAULT '' / 0 fill the rows written before this migration (what they are: unknown); writers still
//   write every column (18.16 applies no DEFAULT to a field a JSONEachRow insert omits).
//   Plain ADD COLUMN at the end of the table (18.16 lacks IF NOT EXISTS; the migration runs once, by
//   version); on a cluster the local tables, then the Distributed one created again
//   (layout.alterColumnStatements). No column is in ORDER BY or PARTITION BY, so erasure may UPDATE them.
import type { ClickHouseMigration } from '../types';

/** The tables' sharding keys (migrations 2 and 3): the Distributed tables are recreated with them on a cluster. */
const FITNESS_KEY = 'cityHash64(data_id)';
const ORDERS_KEY = 'cityHash64(order_id)';

export const ch007EventV2Fields: ClickHouseMigration = {
  version: 7,
  name: 'event_v2_fields',
  statements: (t) => [
    ...t.alter('fitness_results', "ADD COLUMN measured_at_ms UInt64 DEFAULT 0, ADD COLUMN changed_by String DEFAULT ''", FITNESS_KEY),
    ...t.alter('orders', "ADD COLUMN changed_by String DEFAULT '', ADD COLUMN channel String DEFAULT ''", ORDERS_KEY),
  ],
  down: (t) => [
    ...t.alter('orders', 'DROP COLUMN channel, DROP COLUMN changed_by', ORDERS_KEY),
    ...t.alter('fitness_results', 'DROP COLUMN changed_by, DROP COLUMN measured_at_ms', FITNESS_KEY),
  ],
};
