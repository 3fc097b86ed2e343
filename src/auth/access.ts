// The shape every domain's authorisation policy takes. A domain declares one policy (its
// src/domains/<d>/policy.ts) that maps a principal to the rows it may read, write and report on; the
// services apply it (writes check the aggregate's latest state, reads put the scope into the
// ClickHouse query), and the GraphQL edge asks the same policy only to refuse early with FORBIDDEN.
// Nothing here knows a domain: the scope type is the domain's own.
import type { Domain } from '../shared/domain';
import type { Principal } from './principal';
import { AuthError } from './tokens';

export type Capability = 'read' | 'write' | 'report';

/** What a principal may see of a domain's reports: the rows aggregated, and the smallest group shown. */
export interface ReportAccess<S> {
  scope: S;
  /** Groups with fewer members are suppressed (counted, never shown); 0 shows every group. */
  minGroupSize: number;
}

export interface DomainPolicy<S> {
  domain: Domain;
  /** Rows of the domain this principal may read one by one; undefined: none (FORBIDDEN). */
  read(p: Principal): S | undefined;
  /** Aggregates this principal may create or change; undefined: none (FORBIDDEN). */
  write(p: Principal): S | undefined;
  /** What its reports may aggregate; undefined: no reports (FORBIDDEN). */
  report(p: Principal, minGroupSize: number): ReportAccess<S> | undefined;
}

export function mayUse<S>(policy: DomainPolicy<S>, p: Principal, c: Capability): boolean {
  return (c === 'report' ? policy.report(p, 0) : policy[c](p)) !== undefined;
}

/** The scope for a capability, or FORBIDDEN: the one way a service turns a principal into rows. */
export function scopeFor<S>(policy: DomainPolicy<S>, p: Principal, c: 'read' | 'write'): S {
  const s = policy[c](p);
  if (s === undefined) throw forbidden(`${policy.domain} ${c === 'read' ? 'reads' : 'writes'}`);
  return s;
}

export function reportAccessFor<S>(policy: DomainPolicy<S>, p: Principal, minGroupSize: number): ReportAccess<S> {
  const a = policy.report(p, minGroupSize);
  if (a === undefined) throw forbidden(`${policy.domain} reports`);
  return a;
}

export function forbidden(what: string): AuthError {
  return new AuthError('FORBIDDEN', `${what} are not allowed for your role`);
}

/** A write outside the caller's scope (the aggregate exists, but not for this caller). */
export function outOfScope(what: string): AuthError {
  return new AuthError('FORBIDDEN', `${what} is outside your scope`);
}
