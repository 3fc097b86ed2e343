// The domains reconciliation covers, each by its reconciliation part. Reconciliation, its schedule
// and the kafka-first publication reconciler loop over this list or look a part up by a scope's or
// an event's domain; none of them branches on a domain's name. (A registry of whole domain modules
// replaces this list later; adding a domain here is all reconciliation needs.)
import type { DomainStores, ReconciledDomain, ScopeOf } from './contract/reconciliation';
import type { SourceReader } from './contract/sourceReader';
import { fitnessReconciliation } from './fitness/reconciliation/fitnessReconciliation';
import { ordersReconciliation } from './orders/reconciliation/ordersReconciliation';
import type { Domain } from '../publication/event';
import { ValidationError } from '../shared/errors';

export const RECONCILED_DOMAINS = [fitnessReconciliation, ordersReconciliation] as const;

/** What a reconciliation covers: one scope of one reconciled domain (a campaign, an order window...). */
export type Scope = ScopeOf<(typeof RECONCILED_DOMAINS)[number]>;

/** The part of a domain; a domain that is not reconciled is a validation error (e.g. a stored scope). */
export function reconciledDomain(domain: unknown): ReconciledDomain<Scope> {
  const part = RECONCILED_DOMAINS.find((d) => d.domain === domain);
  if (!part) throw new ValidationError('scope', 'unknown scope');
  return part as ReconciledDomain<Scope>;
}

/** Every reconciled domain's source reader over the process's stores. */
export function sourcesOf(stores: DomainStores): Record<Domain, SourceReader> {
  return Object.fromEntries(RECONCILED_DOMAINS.map((d) => [d.domain, d.source(stores)])) as Record<Domain, SourceReader>;
}
