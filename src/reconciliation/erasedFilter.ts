// Erased aggregates are expected to be absent (docs/erasure.md): an erasure removes a student's results
// from the source, Kafka and the projection, in that order, so while it runs (or when an old copy is
// still somewhere) one side may hold an aggregate the other does not. That is neither MISSING nor
// UNEXPECTED nor STALE, and must never be repaired: a replay or a tombstone (a fitness deletion event
// carries the full last state) would publish the student again. Every comparison, repair and rebuild
// passes what it found through here first; the port is the projector's guard (ErasedAggregates).
import { noErasedAggregates, type ErasedAggregates } from '../domains/contract/erasure';
import type { Domain } from '../shared/domain';

/** `items` without the erased aggregates, and the ids left out (counted apart, never stored). */
export async function withoutErased<T>(
  erased: ErasedAggregates | undefined,
  domain: Domain,
  items: readonly T[],
  idOf: (t: T) => string,
): Promise<{ kept: T[]; erased: string[] }> {
  if (!items.length) return { kept: [], erased: [] };
  const gone = await (erased ?? noErasedAggregates).erasedAmong(domain, [...new Set(items.map(idOf))]);
  if (!gone.size) return { kept: [...items], erased: [] };
  return { kept: items.filter((t) => !gone.has(idOf(t))), erased: [...gone] };
}

/** The run note's suffix for erased aggregates left out (a count, never ids). */
export const erasedNote = (n: number): string => (n ? `; ${n} erased aggregate(s) absent as expected` : '');
