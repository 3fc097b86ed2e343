// The writers' side of a pseudonymisation (a customer's orders keep their financial rows): next to
// withoutErased.ts, which drops the rows of erased aggregates, this REWRITES the rows of pseudonymised
// ones, their subject column (the domain's DomainErasure.subjectField: orders customerId) replaced by
// the aggregate's pseudonym, so an event in flight, a replay or a dead-letter replay never writes the
// customer's identifier back while the order itself stays. Dead letters of pseudonymised aggregates
// are not written at all (withoutGuarded): their message is the event as it was, naming the customer.
// The guard is asked once per domain with the distinct ids of the batch, as withoutErased does.
import type { ErasedAggregates } from '../../domains/contract/erasure';
import { domainModule } from '../../domains/registry';
import type { Domain } from '../../shared/domain';
import { TidemarkError } from '../../shared/errors';
import { withoutErased, type AggregateOf } from './withoutErased';

/** A row with its subject replaced by a pseudonym. */
export type Rewrite<T> = (row: T, pseudonym: string) => T;

async function pseudonymsOf<T>(guard: ErasedAggregates, rows: readonly T[], aggregateOf: AggregateOf<T>) {
  const keys = rows.map(aggregateOf);
  const found = new Map<Domain, ReadonlyMap<string, string>>();
  if (!guard.pseudonymsAmong) return { keys, found };
  const byDomain = new Map<Domain, Set<string>>();
  for (const k of keys) if (k && k.aggregateId !== '') byDomain.set(k.domain, (byDomain.get(k.domain) ?? new Set()).add(k.aggregateId));
  for (const [domain, ids] of byDomain) {
    const m = await guard.pseudonymsAmong(domain, [...ids]);
    if (m.size > 0) found.set(domain, m);
  }
  return { keys, found };
}

/** `rows` with the subject of every row of a pseudonymised aggregate replaced by its pseudonym. */
export async function withPseudonyms<T>(
  guard: ErasedAggregates,
  rows: readonly T[],
  aggregateOf: AggregateOf<T>,
  rewrite: Rewrite<T> | undefined,
): Promise<T[]> {
  if (rows.length === 0 || !rewrite) return [...rows];
  const { keys, found } = await pseudonymsOf(guard, rows, aggregateOf);
  if (found.size === 0) return [...rows];
  return rows.map((row, i) => {
    const k = keys[i];
    const p = k ? found.get(k.domain)?.get(k.aggregateId) : undefined;
    return p === undefined ? row : rewrite(row, p);
  });
}

/** `rows` without erased aggregates, then with the pseudonymised ones rewritten: what a projection writer inserts. */
export async function guardedRows<T>(
  guard: ErasedAggregates,
  rows: readonly T[],
  aggregateOf: AggregateOf<T>,
  rewrite: Rewrite<T> | undefined,
): Promise<T[]> {
  return withPseudonyms(guard, await withoutErased(guard, rows, aggregateOf), aggregateOf, rewrite);
}

/** `rows` without erased and without pseudonymised aggregates (dead letters: their message names the subject). */
export async function withoutGuarded<T>(guard: ErasedAggregates, rows: readonly T[], aggregateOf: AggregateOf<T>): Promise<T[]> {
  const kept = await withoutErased(guard, rows, aggregateOf);
  const { keys, found } = await pseudonymsOf(guard, kept, aggregateOf);
  if (found.size === 0) return kept;
  return kept.filter((_, i) => {
    const k = keys[i];
    return !k || !found.get(k.domain)?.has(k.aggregateId);
  });
}

interface SubjectColumns<Row> {
  name: string;
  columns: readonly { name: string; field?: string; list?: string; value: (r: Row) => unknown }[];
}

/**
 * How a projection row's subject is replaced: the column of the domain's subject field, whose row
 * property carries the field's name (orders: customerId -> customer_id). Undefined: the domain has no
 * erasure part, or it deletes (nothing to rewrite). A spec whose row does not carry the field under
 * its name fails here, at startup, and not with a row written unchanged.
 */
export function subjectRewriter<Row>(domain: Domain, table: SubjectColumns<Row>): Rewrite<Row> | undefined {
  const erasure = domainModule(domain).erasure;
  if (!erasure || erasure.mode !== 'pseudonymise') return undefined;
  const field = erasure.subjectField;
  const column = table.columns.find((c) => c.field === field && c.list === undefined);
  if (!column) throw new TidemarkError('INTERNAL', `${table.name} has no column for the subject field`, { retriable: false });
  return (row, pseudonym) => {
    const rewritten = {
      ...row,
      ...writersNamingSubject(row as Record<string, unknown>, field, erasure.writerFields, pseudonym),
      [field]: pseudonym,
    } as Row;
    if (column.value(rewritten) !== pseudonym)
      throw new TidemarkError('INTERNAL', `${table.name}.${column.name} is not read from the row's subject field`, { retriable: false });
    return rewritten;
  };
}

/**
 * How a source event's subject is replaced (a rebuild's load maps source events, not rows): its
 * data[subjectField] set to the pseudonym. Undefined: the domain has no erasure part, or it deletes.
 */
export function eventSubjectRewriter<E extends { data: Record<string, unknown> }>(domain: Domain): Rewrite<E> | undefined {
  const erasure = domainModule(domain).erasure;
  if (!erasure || erasure.mode !== 'pseudonymise') return undefined;
  const field = erasure.subjectField;
  return (e, pseudonym) => ({
    ...e,
    data: { ...e.data, ...writersNamingSubject(e.data, field, erasure.writerFields, pseudonym), [field]: pseudonym },
  });
}

/**
 * The writer fields (DomainErasure.writerFields: orders changedBy) that hold the subject's own id, set to
 * the pseudonym: a customer that placed its own order is named there too; another writer is kept.
 */
function writersNamingSubject(
  o: Record<string, unknown>,
  subjectField: string,
  writerFields: readonly string[] | undefined,
  pseudonym: string,
): Record<string, string> {
  const subject = o[subjectField];
  const out: Record<string, string> = {};
  for (const w of writerFields ?? []) if (subject !== undefined && subject !== '' && o[w] === subject) out[w] = pseudonym;
  return out;
}
