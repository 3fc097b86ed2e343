// The one guard of every resolver that needs an optional service: an instance that does not serve it
// (its roles did not build it) answers STORE_UNAVAILABLE, retriable on another instance.
import { TidemarkError } from '../../shared/errors';
import type { GatewayContext, GatewayServices } from '../context';

type Optional = { [K in keyof GatewayServices]-?: undefined extends GatewayServices[K] ? K : never }[keyof GatewayServices];

const WHAT: Record<Optional, string> = {
  publicationHealth: 'publication health is',
  stateChanges: 'state changes are',
  orders: 'orders are',
  kafkaFirstPublications: 'publications are',
  fitness: 'fitness results are',
  outbox: 'the outbox is',
  readModels: 'read models are',
  reconciliation: 'reconciliation is',
  migrationStatus: 'migration status is',
  consistency: 'consistent reads are',
  domains: 'registered domains are',
  erasure: 'erasure is',
};

/** The services of a domain registered from outside src/ (DomainModule.gateway), or STORE_UNAVAILABLE. */
export function requireDomainService<T>(ctx: Pick<GatewayContext, 'services'>, domain: string): T {
  const s = ctx.services.domains?.[domain];
  if (s == null) throw new TidemarkError('STORE_UNAVAILABLE', `the ${domain} domain is not served by this instance`);
  return s as T;
}

export function requireService<K extends Optional>(ctx: Pick<GatewayContext, 'services'>, name: K): NonNullable<GatewayServices[K]> {
  const s = ctx.services[name];
  if (s == null) throw new TidemarkError('STORE_UNAVAILABLE', `${WHAT[name]} not served by this instance`);
  return s as NonNullable<GatewayServices[K]>;
}
