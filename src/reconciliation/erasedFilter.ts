// Erased aggregates are expected to be absent (docs/erasure.md): an erasure removes a student's results
// from the source, Kafka and the projection, in that order, so while it runs (or when an old copy is
// still somewhere) one side may hold an aggregate the other does not. That is neither MISSING nor
// UNEXPECTED nor STALE, and must never be repaired: a replay or a tombstone (a fitness deletion event
// carries the full last state) would publish the student again. Every comparison, repair and rebuild
// passes what it found through here first; the port is the projector's guard (ErasedAggregates).
import { noErasedAggregates, type ErasedAggregates } from '../domains/contract/erasure';
import { withoutErased } from '../projections/erased/withoutErased';
import type { Domain } from '../shared/domain';

/** `items` without the erased aggregates (the one filter, projections/erased/withoutErased.ts), and the ids left out (counted apart, never stored). */
export async function splitErased<T>(
  erased: ErasedAggregates | undefined,
  domain: Domain,
  items: readonly T[],
  idOf: (t: T) => string,
): Promise<{ kept: T[]; erased: string[] }> {
  const kept = await withoutErased(erased ?? noErasedAggregates, items, (t) => ({ domain, aggregateId: idOf(t) }));
  if (kept.length === items.length) return { kept, erased: [] };
  const left = new Set(kept);
  return { kept, erased: [...new Set(items.filter((t) => !left.has(t)).map(idOf))] };
}

/** The run note's suffix for erased aggregates left out (a count, never ids). */
export const erasedNote = (n: number): string => (n ? `; ${n} erased aggregate(s) absent as expected` : '');
