// A publication-state transition, as operators see it live. The publication tables' owner (its
// publishers, the relay passes of relayPort/relayPass.ts, operator replays, restored rows) and the
// projector (PROJECTION_* only) emit these through a StateChangeSink; every gateway instance receives
// them from Kafka and pushes them to its subscribers. They are notifications, not the source of
// truth: the tables are.
import type { Domain } from '../event';
import type { PublicationState } from '../publisher';

/**
 * Every state a subscriber can see: the publication states, the projection having applied an event,
 * and the projector having dead-lettered one (it will not be applied until an operator replays it).
 */
export type ObservedState = PublicationState | 'PROJECTION_APPLIED' | 'PROJECTION_DEAD_LETTERED';

export interface StateChange {
  eventId: string;
  domain: Domain;
  aggregateId: string;
  version: number;
  /** null when the publication is first seen (e.g. NEW on insert, PUBLISHED_DIRECT). */
  from: ObservedState | null;
  to: ObservedState;
  /** Publish attempts so far (relay attempts for kafka-first), 0 when not applicable. */
  attempt: number;
  at: Date;
}

/** What a change is about: one event of one aggregate. */
export type StateChangeSubject = Pick<StateChange, 'eventId' | 'domain' | 'aggregateId' | 'version'>;

/**
 * The one way to make a state change: every emitter (the publication layer for publication states,
 * the projector for PROJECTION_*) builds it here, with the time from its injected clock.
 */
export function stateChangeOf(
  subject: StateChangeSubject,
  from: ObservedState | null,
  to: ObservedState,
  attempt: number,
  at: Date,
): StateChange {
  return {
    eventId: subject.eventId,
    domain: subject.domain,
    aggregateId: subject.aggregateId,
    version: subject.version,
    from,
    to,
    attempt,
    at,
  };
}

/** Where components report transitions. `emit` never blocks and never throws. */
export interface StateChangeSink {
  emit(changes: readonly StateChange[]): void;
  stop(): Promise<void>;
}

export const discardStateChanges: StateChangeSink = { emit: () => undefined, stop: async () => undefined };

export interface StateChangeWire extends Omit<StateChange, 'at'> {
  at: string;
}

/**
 * One Kafka message carries a chunk of changes as a JSON array: a relay batch of 500 events makes
 * two messages (PROCESSING, SENT) instead of a thousand, which kept a third of the relay's and the
 * projector's Kafka work on notifications (docs/benchmarks.md).
 */
export function encodeStateChanges(changes: readonly StateChange[]): string {
  // JSON.stringify writes a Date through its toJSON (toISOString): the StateChangeWire text, in the
  // same key order, without a copy of every change (the projector emits one per applied event).
  return JSON.stringify(changes);
}

function fromWire(w: unknown): StateChange | undefined {
  if (typeof w !== 'object' || w === null) return undefined;
  const o = w as StateChangeWire;
  if (typeof o.eventId !== 'string' || typeof o.to !== 'string' || typeof o.aggregateId !== 'string' || typeof o.at !== 'string')
    return undefined;
  const at = new Date(o.at);
  return Number.isNaN(at.getTime()) ? undefined : { ...o, at };
}

/** Decodes a message: an array of changes, or a single change (the format before batching). */
export function decodeStateChanges(text: string): StateChange[] {
  let w: unknown;
  try {
    w = JSON.parse(text);
  } catch {
    return [];
  }
  const out: StateChange[] = [];
  for (const item of Array.isArray(w) ? w : [w]) {
    const c = fromWire(item);
    if (c) out.push(c);
  }
  return out;
}
