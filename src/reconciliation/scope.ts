// What a reconciliation covers. A fitness campaign (detectId), optionally narrowed to one project
// (test item); or an order time window [from, to) on the order's createdAt. Scopes are values: their
// key names them in the ledger, so two runs of the same scope can be compared and discrepancies of
// a scope resolved by a later run of it. Pure validation; no I/O.
import type { Domain } from '../publication/event';
import { ValidationError } from '../shared/errors';

export interface CampaignScope {
  domain: 'fitness';
  detectId: number;
  projectId?: number;
}

export interface OrderWindowScope {
  domain: 'orders';
  from: Date;
  to: Date;
}

export type Scope = CampaignScope | OrderWindowScope;

export const MAX_ID = 2147483647;
/** Longest order window one reconciliation may cover (keeps scans bounded). */
export const MAX_ORDER_WINDOW_MS = 31 * 24 * 3600 * 1000;

function positiveId(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ID)
    throw new ValidationError(field, `${field} must be an integer between 1 and ${MAX_ID}`);
  return v;
}

export function campaignScope(detectId: unknown, projectId?: unknown): CampaignScope {
  const s: CampaignScope = { domain: 'fitness', detectId: positiveId('detectId', detectId) };
  if (projectId !== undefined && projectId !== null) s.projectId = positiveId('projectId', projectId);
  return s;
}

export function orderWindowScope(from: unknown, to: unknown): OrderWindowScope {
  const f = from instanceof Date ? from : new Date(String(from));
  const t = to instanceof Date ? to : new Date(String(to));
  if (Number.isNaN(f.getTime())) throw new ValidationError('from', 'from must be a time');
  if (Number.isNaN(t.getTime())) throw new ValidationError('to', 'to must be a time');
  if (t.getTime() <= f.getTime()) throw new ValidationError('to', 'to must be after from');
  if (t.getTime() - f.getTime() > MAX_ORDER_WINDOW_MS) throw new ValidationError('to', 'an order window may span at most 31 days');
  if (f.getTime() < 0) throw new ValidationError('from', 'from must not be before 1970');
  return { domain: 'orders', from: f, to: t };
}

/** Stable name of a scope: fitness:detect=10001, fitness:detect=10001:project=3, orders:<from>..<to>. */
export function scopeKey(s: Scope): string {
  if (s.domain === 'fitness') return `fitness:detect=${s.detectId}${s.projectId ? `:project=${s.projectId}` : ''}`;
  return `orders:${s.from.toISOString()}..${s.to.toISOString()}`;
}

/** The JSON stored with a run or discrepancy (times as ISO strings). */
export function scopeJson(s: Scope): Record<string, unknown> {
  return s.domain === 'fitness'
    ? { domain: s.domain, detectId: s.detectId, ...(s.projectId ? { projectId: s.projectId } : {}) }
    : { domain: s.domain, from: s.from.toISOString(), to: s.to.toISOString() };
}

export function scopeFromJson(j: unknown): Scope {
  const o = (typeof j === 'string' ? JSON.parse(j) : j) as Record<string, unknown>;
  if (o.domain === 'fitness') return campaignScope(o.detectId, o.projectId);
  if (o.domain === 'orders') return orderWindowScope(o.from, o.to);
  throw new ValidationError('scope', 'unknown scope');
}

export const HOUR_MS = 3600 * 1000;

/** The order window of one UTC hour. */
export function orderHourScope(hourStart: Date): OrderWindowScope {
  return orderWindowScope(hourStart, new Date(hourStart.getTime() + HOUR_MS));
}

/**
 * The scopes that partition each domain and that the schedule (rotation, expired events) works in:
 * whole campaigns and single UTC hours of orders. Other scopes an operator asks for are reconciled
 * and recorded as runs, but do not count as the verification of a registered scope.
 */
export function isRegisteredKind(s: Scope): boolean {
  if (s.domain === 'fitness') return s.projectId === undefined;
  return s.from.getTime() % HOUR_MS === 0 && s.to.getTime() - s.from.getTime() === HOUR_MS;
}

export function domainOf(s: Scope): Domain {
  return s.domain;
}
