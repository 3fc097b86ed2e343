// The last step of a comparison attempt (../compareScope.ts), once the source is known not to have
// moved: what the counts or the differences found mean. Young differences (a change within the grace
// period) are delay, not defects: the attempt is retried while attempts remain, and they are never
// reported as discrepancies.
import { isYoung } from '../classify';
import type { Discrepancy, RunOutcome } from '../model';

export interface Verdict {
  /** Retried after the pause (this verdict kept as the latest), or final. */
  retry: boolean;
  outcome: RunOutcome;
  note: string;
  /** Only on a final verdict at IDS or CONTENT. */
  found?: { discrepancies: Discrepancy[]; youngIds: string[] };
}

export function countsVerdict(equal: boolean): Verdict {
  return equal
    ? { retry: false, outcome: 'CLEAN', note: 'logical counts agree' }
    : { retry: false, outcome: 'DISCREPANCIES', note: 'logical counts differ; compare at IDS or CONTENT to classify' };
}

export function graceVerdict(
  found: Discrepancy[],
  o: { nowMs: number; graceMs: number; lastAttempt: boolean; bucketed: boolean; bucketsCompared: number },
): Verdict {
  const young = found.filter((x) => isYoung(x, o.nowMs, o.graceMs));
  const old = found.filter((x) => !isYoung(x, o.nowMs, o.graceMs));
  if (young.length && !o.lastAttempt)
    return { retry: true, outcome: 'CATCHING_UP', note: `${young.length} difference(s) younger than the grace period` };
  const outcome: RunOutcome = old.length ? 'DISCREPANCIES' : young.length ? 'CATCHING_UP' : 'CLEAN';
  const note = old.length
    ? `${old.length} discrepancy(ies)`
    : young.length
      ? `${young.length} difference(s) younger than the grace period`
      : o.bucketed
        ? `${o.bucketsCompared} bucket digests agree`
        : 'every aggregate agrees';
  return { retry: false, outcome, note, found: { discrepancies: old, youngIds: young.map((x) => x.aggregateId) } };
}
