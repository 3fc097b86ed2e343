// Time and ids are injected so decision code is pure and tests are deterministic.
import { randomUUID } from 'node:crypto';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface IdGenerator {
  /** A random, globally unique id (claim tokens, request ids). */
  uuid(): string;
}
export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/** A clock that only moves when told to (unit tests). */
export function fixedClock(start: Date | string): Clock & { advance(ms: number): void; set(d: Date | string): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
    set: (d) => {
      t = new Date(d).getTime();
    },
  };
}
