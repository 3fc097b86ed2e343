// The publication stores of this process with the registered domains each holds: a module declares
// its store kind (src/domains/contract/domainModule.ts), the publication layer below only takes the
// answer. Every relay, operator view and health report starts from this list.
import type { Resources } from '../resources';
import { domainModules } from '../../domains/registry';
import { publicationStores, type PublicationStore, type StoreDomains } from '../../publication/stores';

/** Which registered domains live in the PostgreSQL store and which in the MySQL shards. */
export function storeDomains(): StoreDomains {
  const modules = domainModules();
  return {
    postgres: modules.filter((m) => m.store === 'postgres').map((m) => m.name),
    mysql: modules.filter((m) => m.store === 'mysql-shards').map((m) => m.name),
  };
}

/** Every publication store of the resources, with the registered domains it holds. */
export function domainStores(r: Pick<Resources, 'pg' | 'mysql'>): PublicationStore[] {
  return publicationStores(r, storeDomains());
}
