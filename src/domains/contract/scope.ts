// What a reconciliation covers, as far as the domain-neutral engine knows: a value naming its domain.
// The rest is the domain's own (a fitness campaign, an order time window), defined in its folder;
// src/domains/reconciledDomains.ts unites them into `Scope`.
import type { Domain } from '../../publication/event';

export interface ScopeBase {
  domain: Domain;
}

/** A scope whose latest change is known (the schedule reconciles the newest first). */
export interface ChangedScope<S extends ScopeBase> {
  scope: S;
  lastChangeMs: number;
}
