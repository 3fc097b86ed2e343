// The one filter every writer of the read side applies before it inserts (the projector's flush and
// its dead letters, the dead-letter replay, a rebuild's load): rows of erased aggregates are dropped,
// so an event still in flight, a replay or a rebuild never brings an erased aggregate back. The guard
// is asked once per domain with the distinct ids of the batch; a row that names no aggregate (a dead
// letter whose message could not be read) is kept: it cannot be matched to anyone.
import type { ErasedAggregates } from '../../domains/contract/erasure';
import type { Domain } from '../../shared/domain';

/** Domain and aggregate id of a row, or undefined when the row names none. */
export type AggregateOf<T> = (row: T) => { domain: Domain; aggregateId: string } | undefined;

export async function withoutErased<T>(guard: ErasedAggregates, rows: readonly T[], aggregateOf: AggregateOf<T>): Promise<T[]> {
  if (rows.length === 0) return [];
  const keys = rows.map(aggregateOf);
  const byDomain = new Map<Domain, Set<string>>();
  for (const k of keys) {
    if (!k || k.aggregateId === '') continue;
    const ids = byDomain.get(k.domain) ?? new Set<string>();
    byDomain.set(k.domain, ids.add(k.aggregateId));
  }
  const erased = new Map<Domain, ReadonlySet<string>>();
  for (const [domain, ids] of byDomain) {
    const found = await guard.erasedAmong(domain, [...ids]);
    if (found.size > 0) erased.set(domain, found);
  }
  if (erased.size === 0) return [...rows];
  return rows.filter((_, i) => {
    const k = keys[i];
    return !k || !erased.get(k.domain)?.has(k.aggregateId);
  });
}

/** The aggregate id of a projection row: its table's key column (the aggregate id, as text). */
export function keyOfRow<Row>(table: { columns: readonly { role: string; value: (r: Row) => unknown }[] }): (row: Row) => string {
  const key = table.columns.find((c) => c.role === 'key');
  if (!key) throw new TypeError('a projection table without a key column');
  return (row) => String(key.value(row));
}
