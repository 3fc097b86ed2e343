// Where publication tables live: the PostgreSQL orders store and every fitness MySQL shard. Both
// tables (outbox_events and event_publications) exist in every store, so either domain can use either
// strategy and a strategy switch leaves nothing undelivered. Each store is relayed, measured and
// listed on its own; `name` is its bounded metric label.
import type { Knex } from 'knex';
import type { MysqlShards } from '../infra/mysql/fromMysql';
import type { Domain } from './event';

export interface PublicationStore {
  /** 'postgres' or 'mysql-shard-<index>'. */
  name: string;
  kind: 'mysql' | 'postgres';
  /** Shard index (0 for PostgreSQL). */
  shard: number;
  db: Knex;
  /** Domains whose business rows (and so whose publication rows) live in this store. */
  domains: readonly Domain[];
}

/** Which domains keep their rows in the PostgreSQL store and which in the MySQL shards (from the registry). */
export interface StoreDomains {
  postgres: readonly Domain[];
  mysql: readonly Domain[];
}

/** Every store: the PostgreSQL store, then each MySQL shard, each with the domains it holds. */
export function publicationStores(r: { pg: Knex; mysql: Pick<MysqlShards, 'shards'> }, held: StoreDomains): PublicationStore[] {
  return [
    { name: 'postgres', kind: 'postgres', shard: 0, db: r.pg, domains: held.postgres },
    ...r.mysql.shards.map((sh): PublicationStore => ({
      name: `mysql-shard-${sh.index}`,
      kind: 'mysql',
      shard: sh.index,
      db: sh.db,
      domains: held.mysql,
    })),
  ];
}

export function storesOf(stores: readonly PublicationStore[], domain: Domain): PublicationStore[] {
  return stores.filter((s) => s.domains.includes(domain));
}
