// The per-gateway waiter behind "read your own writes". Every gateway already receives every state
// change from the publication-state topic (stateChangeHub.ts); this listens to them in-process and
// wakes the reads and writeVisible subscriptions waiting for a (domain, aggregate, version):
//   PROJECTION_APPLIED of that version or a newer one  -> that piece is visible;
//   PROJECTION_DEAD_LETTERED of exactly that version   -> blocked, PROJECTOR_DEAD_LETTERED;
//   PARKED / DEAD_LETTER publication of that version   -> blocked, PARKED_OR_DEAD_LETTERED.
// Waiting costs no query: a watch is a few map entries until a notice or its deadline arrives. The
// caller checks ClickHouse once after registering (so a notice between the check and the watch is
// not lost) and once more on timeout (notices are notifications, not the record).
// Recent dead letters are remembered (bounded) so a read that starts after the notice is told at
// once too; a replay (a change leaving that state) or the version being applied forgets them.
import type { Domain } from '../../publication/event';
import type { StateChange } from '../../publication/stateChanges/stateChange';
import type { WrittenVersion } from './consistencyToken';

export type BlockedReason = 'PROJECTOR_DEAD_LETTERED' | 'PARKED_OR_DEAD_LETTERED';
export type PieceState = 'waiting' | 'visible' | BlockedReason;

const BLOCKING: Partial<Record<StateChange['to'], BlockedReason>> = {
  PROJECTION_DEAD_LETTERED: 'PROJECTOR_DEAD_LETTERED',
  PARKED: 'PARKED_OR_DEAD_LETTERED',
  DEAD_LETTER: 'PARKED_OR_DEAD_LETTERED',
};

export interface Watch {
  readonly writes: readonly WrittenVersion[];
  /** The state of each write, in the order given. */
  states(): PieceState[];
  /** Marks the writes the projection already holds (from a ClickHouse check): projected version per index. */
  settleFrom(projected: readonly number[]): void;
  /** True when every write is visible or one is blocked (nothing more to wait for). */
  done(): boolean;
  /** Resolves when done() becomes true, or after `ms` (whichever is first). Never rejects. */
  wait(ms: number): Promise<void>;
  /** Unregisters (idempotent); always called when the caller stops waiting. */
  close(): void;
}

export interface AppliedVersions {
  watch(writes: readonly WrittenVersion[]): Watch;
  /** Feeds notices (the hub's listener; tests call it directly). */
  observe(changes: readonly StateChange[]): void;
  /** Writes currently watched on this gateway. */
  watched(): number;
}

const keyOf = (domain: Domain, aggregateId: string) => `${domain}\u0000${aggregateId}`;

interface Piece {
  watch: WatchImpl;
  index: number;
}

class WatchImpl implements Watch {
  readonly pieces: PieceState[];
  private wake: (() => void) | undefined;
  closed = false;
  constructor(
    readonly writes: readonly WrittenVersion[],
    private readonly unregister: (w: WatchImpl) => void,
  ) {
    this.pieces = writes.map(() => 'waiting');
  }
  states(): PieceState[] {
    return [...this.pieces];
  }
  set(index: number, state: PieceState): void {
    if (this.pieces[index] !== 'waiting') return;
    this.pieces[index] = state;
    if (this.done()) this.wake?.();
  }
  settleFrom(projected: readonly number[]): void {
    // The projection is the record: a write it holds is visible, even if a remembered dead letter
    // said otherwise (it was replayed, or a newer version arrived).
    this.writes.forEach((w, i) => {
      if ((projected[i] ?? 0) < w.version || this.pieces[i] === 'visible') return;
      this.pieces[i] = 'visible';
      if (this.done()) this.wake?.();
    });
  }
  done(): boolean {
    return this.pieces.every((p) => p === 'visible') || this.pieces.some((p) => p !== 'waiting' && p !== 'visible');
  }
  wait(ms: number): Promise<void> {
    if (this.done() || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, Math.max(0, ms));
      timer.unref();
      this.wake = finish;
    });
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unregister(this);
    this.wake?.();
  }
}

export function createAppliedVersions(o: { maxRemembered?: number } = {}): AppliedVersions {
  const maxRemembered = o.maxRemembered ?? 10000;
  const waiting = new Map<string, Set<Piece>>();
  /** key + version -> why it will not be applied (insertion order = age, for the bound). */
  const blocked = new Map<string, BlockedReason>();
  let count = 0;

  const remember = (k: string, reason: BlockedReason) => {
    blocked.delete(k);
    blocked.set(k, reason);
    if (blocked.size > maxRemembered) blocked.delete(blocked.keys().next().value!);
  };

  function unregister(w: WatchImpl): void {
    w.writes.forEach((write, index) => {
      const key = keyOf(write.domain, write.aggregateId);
      const set = waiting.get(key);
      if (!set) return;
      for (const p of set) if (p.watch === w && p.index === index) set.delete(p);
      if (set.size === 0) waiting.delete(key);
    });
    count -= w.writes.length;
  }

  function observeOne(c: StateChange): void {
    const key = keyOf(c.domain, c.aggregateId);
    const versionKey = `${key}\u0000${c.version}`;
    const reason = BLOCKING[c.to];
    if (reason) remember(versionKey, reason);
    // Replayed (a change leaving that state) or applied after all: no longer a reason to stop waiting.
    else if ((c.from && BLOCKING[c.from]) || c.to === 'PROJECTION_APPLIED') blocked.delete(versionKey);
    const set = waiting.get(key);
    if (!set) return;
    for (const p of [...set]) {
      const want = p.watch.writes[p.index]!.version;
      if (c.to === 'PROJECTION_APPLIED' && c.version >= want) p.watch.set(p.index, 'visible');
      else if (reason && c.version === want) p.watch.set(p.index, reason);
      else continue;
      set.delete(p);
    }
    if (set.size === 0) waiting.delete(key);
  }

  return {
    watch(writes) {
      const w = new WatchImpl(writes, unregister);
      count += writes.length;
      writes.forEach((write, index) => {
        const key = keyOf(write.domain, write.aggregateId);
        const known = blocked.get(`${key}\u0000${write.version}`);
        if (known) return w.set(index, known);
        let set = waiting.get(key);
        if (!set) waiting.set(key, (set = new Set()));
        set.add({ watch: w, index });
      });
      return w;
    },
    observe(changes) {
      for (const c of changes) observeOne(c);
    },
    watched: () => count,
  };
}
