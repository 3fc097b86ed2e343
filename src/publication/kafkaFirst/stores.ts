// Where event_publications tables live: the PostgreSQL orders store and every fitness MySQL shard.
// Each store is relayed, measured and listed on its own; `name` is the bounded metric label.
import type { Knex } from 'knex';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import type { Domain } from '../event';

export interface PublicationStore {
  /** 'postgres' or 'mysql-shard-<index>'. */
  name: string;
  db: Knex;
  /** Domains whose business rows (and so whose publication rows) live in this store. */
  domains: readonly Domain[];
}

export function publicationStores(r: { pg: Knex; mysql: MysqlShards }): PublicationStore[] {
  return [
    { name: 'postgres', db: r.pg, domains: ['orders'] },
    ...r.mysql.shards.map((sh) => ({ name: `mysql-shard-${sh.index}`, db: sh.db, domains: ['fitness'] as const })),
  ];
}

export function storesOf(stores: readonly PublicationStore[], domain: Domain): PublicationStore[] {
  return stores.filter((s) => s.domains.includes(domain));
}
