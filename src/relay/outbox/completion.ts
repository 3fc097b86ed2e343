// Pure helpers for completing a batch: how failed rows are grouped into guarded updates, and the
// live state-change notifications a transition produces.
import type { Domain } from '../../publication/event';
import type { StateChange } from '../../publication/stateChanges/stateChange';
import { summarizeError } from '../../shared/redact';
import type { RetryPolicy } from '../backoff';
import type { PublishResult } from './kafkaSink';
import type { ClaimedEvent } from './outboxEvent';
import type { FailureGroup } from './sql/markFailed';

export type FailureGroupOf = FailureGroup & { events: ClaimedEvent[] };

/**
 * One group per (parked?, attempts, error code): rows in a group share their outcome, retry delay
 * (one jitter draw per group) and stored error summary, so a failed batch completes in a few updates.
 */
export function failureGroups(failed: PublishResult['failed'], events: ClaimedEvent[], policy: RetryPolicy): FailureGroupOf[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const groups = new Map<string, FailureGroupOf>();
  for (const f of failed) {
    const e = byId.get(f.id);
    if (!e) continue;
    const park = policy.giveUp(e.attempts);
    const error = summarizeError(f.error);
    const k = `${park}|${e.attempts}|${error.code}`;
    const g = groups.get(k) ?? { ids: [], events: [], park, delayMs: park ? 0 : policy.delayMs(e.attempts), error };
    g.ids.push(e.id);
    g.events.push(e);
    groups.set(k, g);
  }
  return [...groups.values()];
}

export function stateChangesOf(events: ClaimedEvent[], to: StateChange['to'], from: (e: ClaimedEvent) => StateChange['from']): StateChange[] {
  const at = new Date();
  return events.map((e) => ({ eventId: e.eventId, domain: e.domain as Domain, aggregateId: e.aggregateId, version: e.version, from: from(e), to, attempt: e.attempts, at }));
}
