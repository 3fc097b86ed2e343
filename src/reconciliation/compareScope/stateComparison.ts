// Step 4 of a comparison attempt at IDS or CONTENT (../compareScope.ts), once the counts are read: the
// target's states against the source's, directly or (a large scope) bucket digests first and only the
// mismatching buckets drilled into per aggregate; content mismatches get their differing fields named.
import { combineBuckets, mismatchedBuckets, type FieldSpec } from '../../domains/contract/canonical';
import { fieldsOf } from '../../domains/canonicalFields';
import type { CompareLevel } from '../../domains/contract/canonicalFields';
import type { SourceReader, StateFilter } from '../../domains/contract/sourceReader';
import type { RecordState } from '../../domains/contract/sourceState';
import { classify } from '../classify';
import type { Discrepancy, TargetState } from '../model';
import type { TargetReader } from '../ports';
import type { Scope } from '../scope';
import type { SourceScan } from './sourceScan';
import type { ErasedAggregates } from '../../domains/contract/erasure';
import { splitErased } from '../erasedFilter';

export interface StateComparisonDeps {
  source: SourceReader;
  target: TargetReader;
  settings: { bucketCount: number };
  table?: string;
  erased?: ErasedAggregates;
}

export interface StateComparison {
  found: Discrepancy[];
  bucketsCompared: number;
  mismatched: number[];
  /** Erased aggregates that differed: left out of `found` (expected absent). */
  erased: string[];
}

function byId<T extends { id: string }>(rows: T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const r of rows) {
    const prev = m.get(r.id) as (T & { version?: number }) | undefined;
    // An aggregate lives in one place; if a source ever had it twice, the higher version is current.
    if (!prev || ((r as T & { version?: number }).version ?? 0) > (prev.version ?? 0)) m.set(r.id, r);
  }
  return m;
}

export async function compareStates(
  d: StateComparisonDeps,
  scope: Scope,
  level: CompareLevel,
  scan: Extract<SourceScan, { kind: 'scanned' }>,
): Promise<StateComparison> {
  const fields = fieldsOf(scope.domain, level);
  let bucketsCompared = 0;
  let mismatched: number[] = [];
  let source: RecordState[] | undefined = scan.all;
  let target: TargetState[] = [];
  if (scan.bucketed) {
    const targetBuckets = combineBuckets(await d.target.buckets(scope, level, d.settings.bucketCount, d.table));
    mismatched = mismatchedBuckets(scan.buckets!, targetBuckets);
    bucketsCompared = new Set([...scan.buckets!.keys(), ...targetBuckets.keys()]).size;
    const filter: StateFilter = { buckets: { count: d.settings.bucketCount, ids: mismatched } };
    source = mismatched.length ? await d.source.states(scope, level, filter) : [];
    target = mismatched.length ? await d.target.states(scope, level, filter, d.table) : [];
  } else target = await d.target.states(scope, level, {}, d.table);
  const all = classify(byId(source ?? []), byId(target), fields);
  const { kept, erased } = await splitErased(d.erased, scope.domain, all, (x) => x.aggregateId);
  return { found: await nameDifferingFields(d, scope, level, fields, kept), bucketsCompared, mismatched, erased };
}

/** Names the fields of content mismatches (lines for those few aggregates only; values never leave). */
async function nameDifferingFields(
  d: StateComparisonDeps,
  scope: Scope,
  level: CompareLevel,
  fields: readonly FieldSpec[],
  found: Discrepancy[],
): Promise<Discrepancy[]> {
  const contentIds = found.filter((x) => x.kind === 'CONTENT_MISMATCH').map((x) => x.aggregateId);
  if (!contentIds.length || level !== 'CONTENT') return found;
  const lf: StateFilter = { ids: contentIds.slice(0, 1000), withLines: true };
  const [sl, tl] = await Promise.all([d.source.states(scope, level, lf), d.target.states(scope, level, lf, d.table)]);
  const detailed = new Map(classify(byId(sl), byId(tl), fields).map((x) => [x.aggregateId, x]));
  return found.map((x) =>
    x.kind === 'CONTENT_MISMATCH' && detailed.get(x.aggregateId)?.kind === 'CONTENT_MISMATCH'
      ? { ...x, differingFields: detailed.get(x.aggregateId)!.differingFields }
      : x,
  );
}
