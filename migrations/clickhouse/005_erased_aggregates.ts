// The erasure guard (src/projections/erased): one row per aggregate an erasure removed, written before
// the erasure deletes the aggregate's rows. Every writer of the read side (projector, dead-letter replay,
// rebuild) drops rows of these aggregates, so an event still in flight or a replay never brings an
// erased aggregate back, and reconciliation counts them as expected-absent.
//   ENGINE ReplacingMergeTree(erased_at_ms): a repeated insert of the same (domain, aggregate_id)
//     collapses; readers never rely on merges (they ask "is there a row", and take min(erased_at_ms)).
//   ORDER BY (domain, aggregate_id): the guard's look-ups are by domain and id.
//   The row holds no personal value: an aggregate id (a result's data id, an order id) and the erasure id.
// erased_at_ms is UInt64 epoch ms next to a DateTime for analysts (no DateTime64: valid on 18.16 and 26.7).
import type { ClickHouseMigration } from '../types';

export const ch005ErasedAggregates: ClickHouseMigration = {
  version: 5,
  name: 'erased_aggregates',
  down: (t) => [...t.drop('erased_aggregates')],
  statements: (t) => [
    ...t.create({
      name: 'erased_aggregates',
      columns: `      domain String,
      aggregate_id String,
      erasure_id String,
      erased_at DateTime('UTC'),
      erased_at_ms UInt64`,
      engine: 'ReplacingMergeTree(erased_at_ms)',
      orderBy: '(domain, aggregate_id)',
      shardingKey: 'cityHash64(domain, aggregate_id)',
    }),
  ],
};
