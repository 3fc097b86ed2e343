// Pure per-aggregate verdicts of a run on a live scope. The source side is one consistent snapshot
// (each aggregate at the version it had then); the projection is read later, so an aggregate edited
// meanwhile may be ahead of the snapshot, and one edited just before it may not have reached the
// projection yet. Neither is a defect, and neither may hide one:
//   projection at the snapshot's version      compared by content (classify.ts)
//   projection ahead of the snapshot          changed after the snapshot, excluded from this run, if
//                                             the source now holds that version or a newer one;
//                                             otherwise the projection holds a version the source
//                                             never had: UNEXPECTED_ROW
//   projection behind the snapshot (or none)  in flight, excluded, if the aggregate has a publication
//                                             still on its way or the snapshot's version is younger
//                                             than the grace period; otherwise MISSING /
//                                             STALE_VERSION / DELETION_NOT_APPLIED
// Excluded aggregates are judged again by the next run of the scope, from its own snapshot.
import type { FieldSpec } from '../../domains/contract/canonical';
import { classifyOne, compareIds } from '../classify';
import type { Discrepancy, TargetState } from '../model';
import type { RecordState } from '../../domains/contract/sourceState';

export interface SnapshotVerdicts {
  discrepancies: Discrepancy[];
  /** The projection holds a version newer than the snapshot's, and the source confirms it. */
  changedAfterSnapshot: string[];
  /** The projection is behind the snapshot, and the newer version is pending or within the grace period. */
  inFlight: string[];
}

export interface SnapshotSides {
  /** The source in the run's snapshot. */
  snapshot: Map<string, RecordState>;
  target: Map<string, TargetState>;
  /** The source now, for the aggregates `aheadOfSnapshot` named (read after the target). */
  current: Map<string, RecordState>;
  /** Aggregates with a publication still on its way to Kafka (read right after the snapshot opened). */
  pending: ReadonlySet<string>;
  nowMs: number;
  graceMs: number;
  fields: readonly FieldSpec[];
}

const ahead = (s: RecordState | undefined, t: TargetState | undefined): boolean => !!t && (!s || t.version > s.version);

/** The aggregates whose projection is ahead of the snapshot: only the source's current state can judge them. */
export function aheadOfSnapshot(snapshot: Map<string, RecordState>, target: Map<string, TargetState>): string[] {
  return [...target.keys()].filter((id) => ahead(snapshot.get(id), target.get(id))).sort(compareIds);
}

export function judgeSnapshot(x: SnapshotSides): SnapshotVerdicts {
  const out: SnapshotVerdicts = { discrepancies: [], changedAfterSnapshot: [], inFlight: [] };
  const ids = [...new Set([...x.snapshot.keys(), ...x.target.keys()])].sort(compareIds);
  for (const id of ids) {
    const s = x.snapshot.get(id);
    const t = x.target.get(id);
    let d: Discrepancy | undefined;
    if (ahead(s, t)) {
      const now = x.current.get(id);
      // Versions only grow: a source now at or beyond the projection's version did commit it.
      if (now && now.version >= t!.version) {
        out.changedAfterSnapshot.push(id);
        continue;
      }
      d = classifyOne(id, now, t, x.fields);
    } else if (s && (!t || t.version < s.version)) {
      if (x.pending.has(id) || s.commitMs >= x.nowMs - x.graceMs) {
        out.inFlight.push(id);
        continue;
      }
      d = classifyOne(id, s, t, x.fields);
    } else d = classifyOne(id, s, t, x.fields);
    if (d) out.discrepancies.push(d);
  }
  return out;
}
