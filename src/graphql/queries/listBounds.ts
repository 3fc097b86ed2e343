// What bounds a list read. Without it `fitnessResults` or `orders` would aggregate the whole
// ClickHouse table for every page (latest version of every row, then the page): each list needs a
// selective filter, or a caller whose own scope bounds it (a teacher's schools, a student's results, a
// customer's orders). Refused with FILTER_REQUIRED, naming what to add; string filters get the write
// side's length rules, so they bound the SQL and the freshness cache key too.
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Principal } from '../../auth/principal';
import { ORDER_BOUNDS } from '../../domains/orders/order';
import { TidemarkError, ValidationError } from '../../shared/errors';
import { text } from '../shared/arguments';

const DAY_MS = 24 * 3600 * 1000;

function required(what: string): TidemarkError {
  return new TidemarkError('FILTER_REQUIRED', `this list needs a selective filter: ${what}`, { retriable: false });
}

/** Refuses a fitness list that nothing bounds: give detectId, userId or schoolId, unless the caller is scoped. */
export function requireFitnessBound(caller: Principal, f: { detectId?: number; userId?: number; schoolId?: number }): void {
  if (caller.schoolIds?.length || caller.userId !== undefined) return;
  if (f.detectId !== undefined || f.userId !== undefined || f.schoolId !== undefined) return;
  throw required('detectId (a campaign), userId or schoolId');
}

/** The order filter's strings checked as the write side checks them (customerId 1-64 characters, a currency code). */
export function orderFilterStrings(f: { customerId?: string | null; currency?: string | null }): void {
  text('customerId', f.customerId, ORDER_BOUNDS.maxCustomerIdLength);
  if (f.currency != null && !/^[A-Z]{3}$/.test(f.currency))
    throw new ValidationError('currency', 'currency must be a three-letter ISO 4217 code, e.g. EUR');
}

/** Refuses an orders list that nothing bounds: a customerId, or a from/to window of at most `maxDays`, unless the caller is a customer. */
export function requireOrderBound(
  caller: Principal,
  f: { customerId?: string | null; from?: Date | null; to?: Date | null },
  maxDays: number,
): void {
  if (caller.customerId !== undefined || f.customerId != null) return;
  if (f.from && f.to && f.to.getTime() - f.from.getTime() <= maxDays * DAY_MS) return;
  throw required(`customerId, or from and to at most ${maxDays} days apart`);
}

/**
 * True when the list's rows are asked for (nodes, edges or pageInfo), looking through fragments. A
 * request for the freshness marker alone (the console's pipeline badges) reads no rows, so it needs no
 * filter and no page is queried.
 */
export function selectsRows(info: GraphQLResolveInfo): boolean {
  const seen = new Set<string>();
  const sets: SelectionSetNode[] = info.fieldNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  while (sets.length) {
    for (const sel of sets.pop()!.selections) {
      if (sel.kind === Kind.FIELD) {
        if (ROW_FIELDS.has(sel.name.value)) return true;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) sets.push(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = info.fragments[sel.name.value];
        if (f) sets.push(f.selectionSet);
      }
    }
  }
  return false;
}

const ROW_FIELDS = new Set(['nodes', 'edges', 'pageInfo', 'totalCount']);
