// The projected domains, in one list: what the projector subscribes to and writes, what the
// dead-letter replay and the rebuild map with. A domain is added here (a registry comes later).
import type { Projection } from './contract/projection';
import type { Domain } from '../publication/event';
import { fitnessProjection } from './fitness/projection/fitnessProjection';
import { ordersProjection } from './orders/projection/ordersProjection';

export const PROJECTED_DOMAINS: readonly Projection[] = [fitnessProjection, ordersProjection];

/** The projection of a domain (every Domain is projected). */
export function projectionOf(domain: Domain): Projection {
  const p = PROJECTED_DOMAINS.find((x) => x.domain === domain);
  if (!p) throw new TypeError(`no projection for the ${domain} domain`);
  return p;
}
