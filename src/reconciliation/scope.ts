// What a reconciliation covers: a scope of one reconciled domain (a fitness campaign, an order time
// window: each defined in its domain's folder). Scopes are values: their key names them in the
// ledger, so two runs of the same scope can be compared and discrepancies of a scope resolved by a
// later run of it. Every question is answered by the scope's domain part; nothing here knows a domain.
import { reconciledDomain, type Scope } from '../domains/reconciledDomains';

export type { Scope } from '../domains/reconciledDomains';

/** Stable name of a scope: fitness:detect=10001, fitness:detect=10001:project=3, orders:<from>..<to>. */
export function scopeKey(s: Scope): string {
  return reconciledDomain(s.domain).scopeKey(s);
}

/** The JSON stored with a run or discrepancy (times as ISO strings). */
export function scopeJson(s: Scope): Record<string, unknown> {
  return reconciledDomain(s.domain).scopeJson(s);
}

export function scopeFromJson(j: unknown): Scope {
  const o = (typeof j === 'string' ? JSON.parse(j) : j) as Record<string, unknown>;
  return reconciledDomain(o.domain).scopeFromJson(o);
}

/**
 * The scopes that partition each domain and that the schedule (rotation, expired events) works in
 * (whole campaigns, single UTC hours of orders). Other scopes an operator asks for are reconciled
 * and recorded as runs, but do not count as the verification of a registered scope.
 */
export function isRegisteredKind(s: Scope): boolean {
  return reconciledDomain(s.domain).isRegisteredKind(s);
}
