// The orders reconciliation scope: a time window [from, to) on the order's createdAt. Scopes are
// values: their key names them in the ledger, so two runs of the same scope can be compared and
// discrepancies of a scope resolved by a later run of it. Pure validation; no I/O.
import { ValidationError } from '../../../shared/errors';

export interface OrderWindowScope {
  domain: 'orders';
  from: Date;
  to: Date;
}

/** Longest order window one reconciliation may cover (keeps scans bounded). */
export const MAX_ORDER_WINDOW_MS = 31 * 24 * 3600 * 1000;
export const HOUR_MS = 3600 * 1000;

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

/** The order window of one UTC hour. */
export function orderHourScope(hourStart: Date): OrderWindowScope {
  return orderWindowScope(hourStart, new Date(hourStart.getTime() + HOUR_MS));
}

/** orders:<from>..<to> (ISO times). */
export function windowKey(s: OrderWindowScope): string {
  return `orders:${s.from.toISOString()}..${s.to.toISOString()}`;
}

export function windowJson(s: OrderWindowScope): Record<string, unknown> {
  return { domain: s.domain, from: s.from.toISOString(), to: s.to.toISOString() };
}

/** Single UTC hours partition the domain; other windows are an operator's own questions. */
export function isWholeHour(s: OrderWindowScope): boolean {
  return s.from.getTime() % HOUR_MS === 0 && s.to.getTime() - s.from.getTime() === HOUR_MS;
}

/** The start of the last UTC hour that ended at or before `ms` (orders of earlier hours no longer change). */
export function hourFloor(ms: number): Date {
  return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);
}
