// Pure comparison: the authoritative latest state of each aggregate against the projection's, into
// discrepancies by kind. The reference is always the source; the target is judged against it.
//   source live,    target absent            MISSING
//   source deleted, target absent or older   DELETION_NOT_APPLIED (the tombstone never arrived)
//   source live,    target older version     STALE_VERSION
//   target present, source absent            UNEXPECTED_ROW (a row with no source)
//   target newer version than the source     UNEXPECTED_ROW (a version the source never had)
//   same version,   different canonical line CONTENT_MISMATCH (also when equal-version rows disagree)
import type { FieldSpec } from '../domains/contract/canonical';
import { differingFields } from '../domains/contract/canonical';
import type { Discrepancy, SegmentCount, TargetState } from './model';
import type { RecordState } from '../domains/contract/sourceState';

function base(id: string, s: RecordState | undefined, t: TargetState | undefined): Omit<Discrepancy, 'kind'> {
  return {
    aggregateId: id,
    sourceVersion: s?.version ?? null,
    targetVersion: t?.version ?? null,
    sourceDigest: s?.digest ?? null,
    targetDigest: t ? (t.digests.find((d) => d !== s?.digest) ?? t.digest) : null,
    differingFields: [],
    sourceCommitMs: s?.commitMs ?? null,
    targetCommitMs: t?.commitMs ?? null,
  };
}

export function classifyOne(
  id: string,
  s: RecordState | undefined,
  t: TargetState | undefined,
  fields: readonly FieldSpec[],
): Discrepancy | undefined {
  if (!s && !t) return undefined;
  if (s && !t) return { kind: s.isDeleted ? 'DELETION_NOT_APPLIED' : 'MISSING', ...base(id, s, t) };
  if (!s && t) return { kind: 'UNEXPECTED_ROW', ...base(id, s, t) };
  const src = s!;
  const tgt = t!;
  if (tgt.version < src.version) return { kind: src.isDeleted ? 'DELETION_NOT_APPLIED' : 'STALE_VERSION', ...base(id, src, tgt) };
  if (tgt.version > src.version) return { kind: 'UNEXPECTED_ROW', ...base(id, src, tgt) };
  if (tgt.digests.length === 1 && tgt.digests[0] === src.digest) return undefined;
  const names = new Set<string>();
  if (src.line) for (const l of tgt.lines ?? []) if (l !== src.line) for (const n of differingFields(fields, src.line, l)) names.add(n);
  return { kind: 'CONTENT_MISMATCH', ...base(id, src, tgt), differingFields: fields.map((f) => f.name).filter((n) => names.has(n)) };
}

/** Every discrepancy between the two sides, in aggregate id order. */
export function classify(source: Map<string, RecordState>, target: Map<string, TargetState>, fields: readonly FieldSpec[]): Discrepancy[] {
  const ids = [...new Set([...source.keys(), ...target.keys()])].sort(compareIds);
  const out: Discrepancy[] = [];
  for (const id of ids) {
    const d = classifyOne(id, source.get(id), target.get(id), fields);
    if (d) out.push(d);
  }
  return out;
}

/** Numeric ids in numeric order, others lexicographically (stable output for operators and tests). */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Differences involving a change younger than the grace period are normal delay (the write may still
 * be on its way: a direct publish in flight, a relay poll, a projector flush), not discrepancies.
 */
export function isYoung(d: Discrepancy, nowMs: number, graceMs: number): boolean {
  const newest = Math.max(d.sourceCommitMs ?? 0, d.targetCommitMs ?? 0);
  return newest >= nowMs - graceMs;
}

/** Logical counts (latest non-deleted) per segment on both sides; equal when every segment agrees. */
export function mergeCounts(source: Map<string, number>, target: Map<string, number>): { counts: SegmentCount[]; equal: boolean } {
  const segments = [...new Set([...source.keys(), ...target.keys()])].sort(compareIds);
  const counts = segments.map((segment) => ({ segment, source: source.get(segment) ?? 0, target: target.get(segment) ?? 0 }));
  return { counts, equal: counts.every((c) => c.source === c.target) };
}
