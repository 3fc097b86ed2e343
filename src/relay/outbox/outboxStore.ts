// One store that has an outbox_events table: a fitness MySQL shard or the PostgreSQL orders store.
// Each gets its own relay loop; the label names it in metrics and logs.
import type { Knex } from 'knex';

export interface OutboxStore {
  kind: 'mysql' | 'postgres';
  shard: number;
  db: Knex;
}

export function storeLabels(s: OutboxStore): { store: string; shard: string } {
  return { store: s.kind, shard: String(s.shard) };
}
