// The read side of "read your own writes", one per gateway process. A read given consistency tokens
// answers as soon as every write they name (or a newer version of it) is in the projection, and
// never later than maxWaitMs; a writeVisible subscription waits without a deadline. The wait is
// driven by the projector's PROJECTION_APPLIED notices (appliedVersions.ts), not by asking ClickHouse
// in a loop: a read costs one check of the named aggregates after it starts watching (concurrent
// reads share one query), and one more only if it times out; thousands of waiting reads cost no
// query while they wait.
// Waiting is bounded per gateway (CONSISTENCY_MAX_WAITING): beyond it a wait is refused with
// OVERLOADED, retriable, rather than holding memory without limit.
import type { Principal } from '../../auth/principal';
import { coalescingLoader, loadAll } from '../../shared/coalescing';
import { TidemarkError, ValidationError } from '../../shared/errors';
import { requestSignal } from '../../shared/requestSignal';
import type { ReadModelStore } from '../read/readModelStore';
import type { AppliedVersions, BlockedReason, Watch } from './appliedVersions';
import type { ConsistencyTokenCodec, WrittenVersion } from './consistencyToken';
import { selectProjectedVersions } from './sql/selectProjectedVersions';

export type MissingReason = 'NOT_YET_VISIBLE' | BlockedReason;

export interface MissingVersion extends WrittenVersion {
  reason: MissingReason;
}

/** Where the named writes stand when a wait ends. */
export interface WriteVisibility {
  /** Every named write (or a newer version of it) is in the projection. */
  visible: boolean;
  /** Set when a named write will not be applied without an operator (the wait ended at once). */
  blocked: BlockedReason | null;
  missing: MissingVersion[];
  waitedMs: number;
}

export interface ConsistencyService {
  /** The token of a mutation's writes (the caller is the writer). */
  tokenFor(writer: Principal, writes: readonly WrittenVersion[]): string;
  /** Validates the tokens (VALIDATION_FAILED) and maxWaitMs, then waits as described above. */
  awaitWrites(caller: Principal, atLeast: readonly string[], maxWaitMs: number | null | undefined): Promise<WriteVisibility>;
  /**
   * For writeVisible: validates the token now (throws), then resolves once with the outcome (no
   * deadline). `cancel()` stops waiting (the client went away); the promise then resolves with null.
   */
  watchWrite(caller: Principal, token: string): { outcome: Promise<WriteVisibility | null>; cancel(): void };
  /** Waits in progress on this gateway (reads and subscriptions). */
  waiting(): number;
}

export interface ConsistencyDeps {
  tokens: ConsistencyTokenCodec;
  applied: AppliedVersions;
  store: ReadModelStore;
  database: string;
  defaultWaitMs: number;
  maxWaitMs: number;
  maxWaiting: number;
  now?: () => number;
}

const HOUR_MS = 3600000;

function outcomeOf(w: Watch, waitedMs: number): WriteVisibility {
  const states = w.states();
  const missing: MissingVersion[] = [];
  w.writes.forEach((write, i) => {
    const s = states[i]!;
    if (s !== 'visible') missing.push({ ...write, reason: s === 'waiting' ? 'NOT_YET_VISIBLE' : s });
  });
  const blocked = missing.find((m) => m.reason !== 'NOT_YET_VISIBLE')?.reason ?? null;
  return { visible: missing.length === 0, blocked: blocked as BlockedReason | null, missing, waitedMs };
}

export function createConsistencyService(d: ConsistencyDeps): ConsistencyService {
  const now = d.now ?? (() => performance.now());
  let inFlight = 0;

  function acquire(): () => void {
    if (inFlight >= d.maxWaiting)
      throw new TidemarkError('OVERLOADED', 'too many reads are waiting for writes on this gateway; retry shortly', {
        retriable: true,
        details: { limit: d.maxWaiting },
      });
    inFlight++;
    let released = false;
    return () => {
      if (!released) inFlight--;
      released = true;
    };
  }

  // Checks of concurrent reads share one query (the ids asked for in one event-loop turn): a burst of
  // reads costs ClickHouse one query, not one each.
  const versions = coalescingLoader<WrittenVersion, number>((writes) => selectProjectedVersions(d.store, d.database, writes));
  const check = async (w: Watch) => w.settleFrom(await loadAll(versions, w.writes));

  function waitMsOf(maxWaitMs: number | null | undefined): number {
    if (maxWaitMs == null) return d.defaultWaitMs;
    if (!Number.isSafeInteger(maxWaitMs) || maxWaitMs < 0 || maxWaitMs > d.maxWaitMs)
      throw new ValidationError('consistency.maxWaitMs', `maxWaitMs must be 0-${d.maxWaitMs}`);
    return maxWaitMs;
  }

  return {
    tokenFor: (writer, writes) => d.tokens.issue(writer.subject, writes),

    async awaitWrites(caller, atLeast, maxWaitMs) {
      const budget = waitMsOf(maxWaitMs);
      const writes = d.tokens.verifyAll(atLeast, caller.subject);
      const release = acquire();
      const started = now();
      // Watch first, then check: a notice that arrives while the check runs is not lost.
      const w = d.applied.watch(writes);
      // A client that goes away stops its wait at once: its slot (CONSISTENCY_MAX_WAITING) is free again.
      const signal = requestSignal();
      const stop = () => w.close();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        // Always one check, even when a remembered dead letter already decided: the projection may hold it after all.
        await check(w);
        if (!w.done()) {
          await w.wait(budget - (now() - started));
          if (signal?.aborted) throw new TidemarkError('CANCELLED', 'the request was cancelled by its client');
          if (!w.done()) await check(w);
        }
        return outcomeOf(w, Math.round(now() - started));
      } finally {
        signal?.removeEventListener('abort', stop);
        w.close();
        release();
      }
    },

    watchWrite(caller, token) {
      const writes = d.tokens.verify(token, caller.subject);
      const release = acquire();
      const started = now();
      const w = d.applied.watch(writes);
      let cancelled = false;
      const outcome = (async () => {
        try {
          await check(w);
          while (!w.done() && !cancelled) await w.wait(HOUR_MS);
          return cancelled && !w.done() ? null : outcomeOf(w, Math.round(now() - started));
        } finally {
          w.close();
          release();
        }
      })();
      return {
        outcome,
        cancel() {
          cancelled = true;
          w.close();
        },
      };
    },

    waiting: () => inFlight,
  };
}
