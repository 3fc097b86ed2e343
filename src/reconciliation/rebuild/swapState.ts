// Where an abandoned rebuild stopped relative to its swap, decided from the ledger row and the tables
// ClickHouse has (pure; recoverRebuilds.ts reads the facts, sql/storageTables.ts explains them).
//   The phase first: runRebuild records SWAP before it swaps and CATCH_UP (with the retired table's
//   name) after, so an earlier phase means no swap was ever asked for, a later one that it is done.
//   (A phase after the swap with the old data gone: an earlier recovery dropped it after a CLEAN
//   verification and died before recording VERIFIED.)
//   Phase SWAP (the process died around the swap statement, which ClickHouse finishes regardless):
//     the RENAME path's retired table exists          -> swapped, the old data under the retired name;
//     the live name holds the shadow's recorded UUID  -> swapped by EXCHANGE, the old data under the
//                                                        shadow's name;
//     otherwise                                       -> not swapped (the shadow, if it exists, is the
//                                                        new data no reader ever saw).
import type { StorageTableFacts } from './sql/storageTables';

export const PHASES_BEFORE_SWAP: ReadonlySet<string> = new Set(['STARTING', 'SHADOW', 'COPY', 'LOAD', 'VALIDATE']);
export const PHASES_AFTER_SWAP: ReadonlySet<string> = new Set(['CATCH_UP', 'VERIFY']);

export type SwapState =
  /** Readers never left the live table: drop the shadow and fail the rebuild. */
  | { swapped: false; why: string }
  /** Readers are on the rebuilt table; `retired` (where the old data is read) finishes the rebuild. */
  | { swapped: true; retired: string; why: string };

export interface SwapEvidence {
  phase: string;
  /** The shadow's UUID recorded at SHADOW (null on 18.16, Ordinary databases, or a crash before it was recorded). */
  shadowUuid: string | null;
  /** The retired table's name the row recorded at CATCH_UP, if it got there. */
  retiredTable: string | null;
  names: { live: string; shadow: string; retired: string };
  /** Storage tables as ClickHouse has them now, by the names readers use. */
  facts: ReadonlyMap<string, StorageTableFacts>;
}

export function swapStateOf(e: SwapEvidence): SwapState {
  const { live, shadow, retired } = e.names;
  const fact = (t: string): StorageTableFacts => e.facts.get(t) ?? { exists: false, uuid: null };
  if (PHASES_BEFORE_SWAP.has(e.phase)) return { swapped: false, why: `stopped in ${e.phase}, before the swap` };
  if (fact(retired).exists) return { swapped: true, retired, why: `stopped in ${e.phase}; the live table was renamed to ${retired}` };
  if (e.shadowUuid && fact(live).uuid === e.shadowUuid)
    return { swapped: true, retired: shadow, why: `stopped in ${e.phase}; the tables were exchanged` };
  // Recorded after the swap: the old data is wherever the row said (it may be gone already, dropped by
  // an earlier recovery after a CLEAN verification); never dropped here unverified.
  if (PHASES_AFTER_SWAP.has(e.phase))
    return {
      swapped: true,
      retired: e.retiredTable ?? (fact(shadow).exists ? shadow : retired),
      why: `stopped in ${e.phase}, after the swap`,
    };
  return { swapped: false, why: `stopped in ${e.phase}; the swap had not happened` };
}
