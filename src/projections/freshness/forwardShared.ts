// Sharing of freshness reads "forward in time" only. A FRESH marker vouches for every version committed
// before its request began, so each input must have been read after the moment it is asked to cover:
// the pending publications after the request began, the Kafka log end after the pending read
// completed. Sharing one read between concurrent requests is still worth it (a busy gateway asks the
// same question hundreds of times a second), but a request may only join a read that STARTS after its
// own moment. So, per key: at most one read runs at a time; a request finds the running read usable
// only if it started after the request's moment, otherwise it joins the next read, which starts once
// the running one settled (every request waiting meanwhile joins that same next read). Moments are
// values of one monotonic sequence (`Moments`), taken when a read starts and when a request asks.
// Nothing completed is reused here: a caller that wants a cache decides itself what cannot lie.
import type { Clock } from '../../shared/clock';
import { sharedAcrossRequests } from '../../shared/requestSignal';

/** A monotonic sequence of moments in this process (the order of events, not wall time). */
export interface Moments {
  now(): number;
}

export function moments(): Moments {
  let n = 0;
  return { now: () => ++n };
}

export interface Started<T> {
  /** The moment the read started: every request whose moment is earlier may use it. */
  startedAt: number;
  /** Wall time the read started (a marker's asOf). */
  atMs: number;
  value: T;
}

interface Slot<T> {
  running?: { startedAt: number; result: Promise<Started<T>> };
  next?: Promise<Started<T>>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ForwardShared<T> {
  private readonly slots = new Map<string, Slot<T>>();

  constructor(
    private readonly moments: Moments,
    private readonly clock: Clock,
  ) {}

  /** A read of `key` that started after `after` (a moment the caller took), shared with other callers. */
  get(key: string, after: number, read: () => Promise<T>): Promise<Started<T>> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = {}));
    if (slot.running && slot.running.startedAt > after) return slot.running.result;
    if (slot.next) return slot.next;
    const s = slot;
    const previous = s.running ? s.running.result.then(noop, noop) : Promise.resolve();
    const next = previous.then(nextTurn).then(() => {
      s.next = undefined;
      const startedAt = this.moments.now();
      const atMs = this.clock.now().getTime();
      // Shared by every request that joins it: not cancelled when one of them leaves (requestSignal.ts).
      const result = Promise.resolve()
        .then(() => sharedAcrossRequests(read))
        .then((value) => ({ startedAt, atMs, value }));
      s.running = { startedAt, result };
      const settle = () => {
        if (s.running?.result === result) s.running = undefined;
        if (!s.running && !s.next && this.slots.get(key) === s) this.slots.delete(key);
      };
      result.then(settle, settle);
      return result;
    });
    s.next = next;
    return next;
  }

  /** Keys with a read running or scheduled (for tests). */
  size(): number {
    return this.slots.size;
  }
}

function noop(): void {}
