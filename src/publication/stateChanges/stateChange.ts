// A publication-state transition, as operators see it live. Relays, publishers and the projector
// emit these through a StateChangeSink; every gateway instance receives them from Kafka and pushes
// them to its subscribers. They are notifications, not the source of truth: the tables are.
import type { Domain } from '../event';
import type { PublicationState } from '../publisher';

/** Every state a subscriber can see: the publication states plus the projection having applied it. */
export type ObservedState = PublicationState | 'PROJECTION_APPLIED';

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

/** Where components report transitions. `emit` never blocks and never throws. */
export interface StateChangeSink {
  emit(changes: readonly StateChange[]): void;
  stop(): Promise<void>;
}

export const discardStateChanges: StateChangeSink = { emit: () => undefined, stop: async () => undefined };

export interface StateChangeWire extends Omit<StateChange, 'at'> {
  at: string;
}

export function encodeStateChange(c: StateChange): string {
  return JSON.stringify({ ...c, at: c.at.toISOString() } satisfies StateChangeWire);
}

export function decodeStateChange(text: string): StateChange | undefined {
  try {
    const w = JSON.parse(text) as StateChangeWire;
    if (typeof w.eventId !== 'string' || typeof w.to !== 'string' || typeof w.aggregateId !== 'string') return undefined;
    return { ...w, at: new Date(w.at) };
  } catch {
    return undefined;
  }
}
