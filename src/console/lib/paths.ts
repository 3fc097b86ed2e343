// The live stream's memory: the newest state changes (bounded), and per event the path of states it
// went through (NEW -> PROCESSING -> SENT -> PROJECTION_APPLIED), so an operator sees where each
// aggregate's publication is and where it stopped.
export interface StateChangeLike {
  eventId: string;
  domain: string;
  aggregateId: string;
  version: number;
  from?: string | null;
  to: string;
  attempt: number;
  at: string;
}

export interface EventPath {
  eventId: string;
  domain: string;
  aggregateId: string;
  version: number;
  /** The states in the order they happened (by `at`, PROJECTION_APPLIED last), whatever order they arrived in. */
  states: string[];
  /** When each state happened (epoch ms), beside `states`. */
  times: number[];
  lastAt: string;
}

const APPLIED = 'PROJECTION_APPLIED';

export interface StreamState {
  changes: StateChangeLike[];
  paths: EventPath[];
  received: number;
}

export const EMPTY_STREAM: StreamState = { changes: [], paths: [], received: 0 };

/** Adds one change: newest first, at most `keep` changes and `keep` paths (the least recent paths go first). */
export function addChange(s: StreamState, c: StateChangeLike, keep = 200): StreamState {
  const changes = [c, ...s.changes].slice(0, keep);
  const old = s.paths.find((p) => p.eventId === c.eventId);
  const at = Date.parse(c.at);
  let states: string[];
  let times: number[];
  if (!old)
    [states, times] = c.from
      ? [
          [c.from, c.to],
          [at, at],
        ]
      : [[c.to], [at]];
  else {
    // Changes of one event come from different processes (SENT from a relay, PROJECTION_APPLIED from a
    // projector) and may arrive in either order: each goes where its time puts it. But each process
    // stamps its own clock, and the relay records SENT after the broker's acknowledgement and its own
    // database update, by which time the projector may have applied the message: the projection of an
    // event always follows its publication, so PROJECTION_APPLIED stays last whatever the clocks say.
    // A replay starts the path again from its new state; a repeated state (a retried transition) is
    // not doubled.
    let i = old.times.length;
    if (c.to !== APPLIED) {
      while (i > 0 && old.times[i - 1]! > at) i--;
      while (i > 0 && old.states[i - 1] === APPLIED) i--;
    }
    const doubled = old.states[i - 1] === c.to;
    states = doubled ? old.states : [...old.states.slice(0, i), c.to, ...old.states.slice(i)];
    times = doubled ? old.times : [...old.times.slice(0, i), at, ...old.times.slice(i)];
  }
  const lastAt = old && Date.parse(old.lastAt) > at ? old.lastAt : c.at;
  const path: EventPath = { eventId: c.eventId, domain: c.domain, aggregateId: c.aggregateId, version: c.version, states, times, lastAt };
  const paths = [path, ...s.paths.filter((p) => p.eventId !== c.eventId)].slice(0, keep);
  return { changes, paths, received: s.received + 1 };
}

/** Client-side narrowing of what is shown (the subscription's own filter narrows what is sent). */
export function matchesText(c: { eventId: string; aggregateId: string }, text: string): boolean {
  const t = text.trim().toLowerCase();
  return !t || c.aggregateId.toLowerCase().includes(t) || c.eventId.toLowerCase().includes(t);
}
