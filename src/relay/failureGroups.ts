// How a pass's record failures are completed: grouped so that rows sharing an outcome (retry or give
// up), an attempt count and an error code are one guarded UPDATE. Past the last-resort age
// (RELAY_GIVE_UP_AGE_HOURS) any failure gives up, with the reason code RELAY_GIVE_UP_AGE.
import type { FailureGroup, RelayRecord } from '../publication/relayPort/publicationTable';
import type { SafeErrorSummary } from '../shared/redact';
import type { RelayDeps } from './relayDeps';

const AGE_CODE = 'RELAY_GIVE_UP_AGE';

/** One group per (give up?, attempts, error code): rows in a group share outcome, delay and summary. */
export function failureGroups(
  failed: { record: RelayRecord; error: SafeErrorSummary }[],
  d: Pick<RelayDeps, 'policy' | 'giveUpAgeMs'>,
): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const { record, error } of failed) {
    const old = d.giveUpAgeMs > 0 && record.ageMs >= d.giveUpAgeMs;
    const giveUp = old || d.policy.giveUp(record.attempts);
    const err = old
      ? { code: AGE_CODE, summary: `still failing after the last-resort age; last error ${error.code}: ${error.summary}`.slice(0, 255) }
      : error;
    const key = `${giveUp}|${record.attempts}|${err.code}`;
    const g = groups.get(key) ?? { records: [], giveUp, delayMs: giveUp ? 0 : d.policy.delayMs(record.attempts), error: err };
    g.records.push(record);
    groups.set(key, g);
  }
  return [...groups.values()];
}
