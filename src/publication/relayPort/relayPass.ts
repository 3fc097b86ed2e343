// A relay pass as the publication layer runs it: the table's raw statements (one SQL file each) plus
// the state-change notices of every transition they make. The notices are built here and nowhere in
// the relay, so the states a subscriber sees are the table's own. They are collected over the pass and
// emitted as one message when it ends (a batch of 500 makes two messages, PROCESSING and SENT, not a
// thousand: docs/benchmarks.md); only the claim's own notices go out at once, before the publish.
// A completion that lost part of its claim (the lease expired and another relay took the rows over)
// notifies nothing: we cannot tell which rows still were ours, and the new owner will notify.
import type { Clock } from '../../shared/clock';
import { stateChangeOf, type StateChange, type StateChangeSink } from '../stateChanges/stateChange';
import type { RelayPass, RelayStatements, RelayStates } from './publicationTable';

export function relayPass(statements: RelayStatements, states: RelayStates, notices: StateChangeSink, clock: Clock): RelayPass {
  const changes: StateChange[] = [];
  const at = () => clock.now();
  return {
    async claim(req) {
      const claim = await statements.claim(req);
      for (const r of claim.gaveUp) changes.push(stateChangeOf(r, r.from, states.gaveUp, r.attempts, at()));
      if (claim.records.length && states.claimed)
        notices.emit(claim.records.map((r) => stateChangeOf(r, r.from, states.claimed!, r.attempts, at())));
      return claim;
    },
    async markSent(token, records, publishedAt) {
      const marked = await statements.markSent(
        token,
        records.map((r) => r.id),
      );
      // SENT happened when the broker acknowledged, not when the row was marked afterwards: by then a
      // projector may already have applied the message, and state changes are ordered by their time.
      if (marked === records.length)
        for (const r of records) changes.push(stateChangeOf(r, states.claimed ?? r.from, states.sent, r.attempts, publishedAt));
      return marked;
    },
    async markFailed(token, group) {
      const n = await statements.markFailed(token, group);
      if (n === group.records.length)
        for (const r of group.records)
          changes.push(stateChangeOf(r, states.claimed ?? r.from, group.giveUp ? states.gaveUp : states.failed, r.attempts, at()));
      return n;
    },
    async release(token, records, delayMs, error) {
      const n = await statements.release(token, records, delayMs, error);
      // Only a table whose claim is a state (PROCESSING) has a transition to report: the attempt was
      // not spent, so the notice carries the count from before the claim.
      if (n === records.length && states.claimed)
        for (const r of records) changes.push(stateChangeOf(r, states.claimed, states.failed, r.attempts - 1, at()));
      return n;
    },
    end() {
      notices.emit(changes);
    },
  };
}
