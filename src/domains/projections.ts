// The projected domains, from the registry: what the projector subscribes to and writes, what the
// dead-letter replay and the rebuild map with. Every registered domain is projected.
import type { Projection } from './contract/projection';
import type { Domain } from '../shared/domain';
import { domainModule, domainModules } from './registry';

/** Every registered domain's projection, in registration order. */
export function projectedDomains(): readonly Projection[] {
  return domainModules().map((m) => m.projection);
}

/** The projection of a domain (a domain nobody registered is a validation error). */
export function projectionOf(domain: Domain): Projection {
  return domainModule(domain).projection;
}
