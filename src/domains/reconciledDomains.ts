// The domains reconciliation covers, each by its reconciliation part, from the registry.
// Reconciliation, its schedule and the kafka-first publication reconciler loop over these or look a
// part up by a scope's or an event's domain; none of them branches on a domain's name.
import type { DomainStores, ReconciledDomain } from './contract/reconciliation';
import type { SourceReader } from './contract/sourceReader';
import type { ScopeBase } from './contract/scope';
import { domainModule, domainModules } from './registry';
import type { Domain } from '../publication/event';
import { ValidationError } from '../shared/errors';

/** Every registered domain's reconciliation part, in registration order. */
export function reconciledDomains(): readonly ReconciledDomain<Scope>[] {
  return domainModules().map((m) => m.reconciliation as ReconciledDomain<Scope>);
}

/**
 * What a reconciliation covers: one scope of one registered domain (a campaign, an order window, a
 * notebook...). The engine only reads its domain; the rest is the domain's, parsed and named by its part.
 */
export type Scope = ScopeBase;

/** The part of a domain; a domain that is not reconciled is a validation error (e.g. a stored scope). */
export function reconciledDomain(domain: unknown): ReconciledDomain<Scope> {
  try {
    return domainModule(domain).reconciliation as ReconciledDomain<Scope>;
  } catch {
    throw new ValidationError('scope', 'unknown scope');
  }
}

/** Every reconciled domain's source reader over the process's stores. */
export function sourcesOf(stores: DomainStores): Record<Domain, SourceReader> {
  return Object.fromEntries(reconciledDomains().map((d) => [d.domain, d.source(stores)])) as Record<Domain, SourceReader>;
}
