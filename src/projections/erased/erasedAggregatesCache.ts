// The writers' view of erased_aggregates (the ErasedAggregates port, src/domains/contract/erasure.ts):
// a set in memory (and the pseudonymised aggregates with their pseudonym), refreshed every ERASURE_GUARD_REFRESH_MS, so the projector's hot path asks a Set
// and not ClickHouse. An erasure waits 3 refresh intervals after writing its guard rows before it
// deletes (src/erasure/stores/clickhouseErasure.ts): by then every writer refreshing on this interval
// has them, and a flush checked against the older set has had time to land (and is deleted with the rest).
//   Refresh: incremental (rows whose guard time is at or after the newest seen minus an overlap that
//     covers clocks of erasing processes that run behind), and a full read every `fullEveryMs`.
//   ClickHouse briefly down: the last set is kept and the failure counted; the projector's own
//     inserts fail then anyway. Only the first load must succeed: until then erasedAmong throws a
//     retriable error (a flush fails and is repeated), never answers "nothing erased".
//   Either a loop (start()/stop(), for long-running roles) or lazily on use when the set is older than
//     the interval (tools, a dead-letter replay, a rebuild), or both.
import type { ErasedAggregates } from '../../domains/contract/erasure';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Clock } from '../../shared/clock';
import type { Domain } from '../../shared/domain';
import { StoreUnavailableError } from '../../shared/errors';
import { sleep } from '../../shared/lifecycle';
import { erasedSince } from './selectErased';

export interface ErasedAggregatesCache extends ErasedAggregates {
  pseudonymsAmong(domain: Domain, aggregateIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** From the cached set only (false before the first load). */
  isErased(domain: Domain, aggregateId: string): boolean;
  /** Reads the table now (incremental, or full when due); keeps the last set when it fails. */
  refresh(): Promise<void>;
  /** Refreshes every refreshMs until stop(). */
  start(): void;
  stop(): Promise<void>;
  /** Aggregates in the set, and failed refreshes since start (for the operator). */
  size(): number;
  failures(): number;
}

const key = (domain: Domain, id: string) => `${domain}\u0000${id}`;

export function erasedAggregatesCache(d: {
  ch: ClickHouseClient;
  database: string;
  clock: Clock;
  /** ERASURE_GUARD_REFRESH_MS. */
  refreshMs: number;
  /** How far back an incremental refresh reads before the newest guard time seen (default 1 hour). */
  overlapMs?: number;
  /** How often the whole table is read again (default 10 minutes). */
  fullEveryMs?: number;
}): ErasedAggregatesCache {
  const overlapMs = d.overlapMs ?? 3600000;
  const fullEveryMs = d.fullEveryMs ?? 600000;
  const erased = new Set<string>();
  /** Pseudonymised aggregates (never in `erased`): their pseudonym. */
  const pseudonyms = new Map<string, string>();
  let loaded = false;
  let newestMs = 0;
  let lastFullMs = -Infinity;
  let lastReadMs = -Infinity;
  let failed = 0;
  let inFlight: Promise<void> | undefined;
  let loop: { stopped: AbortController; done: Promise<void> } | undefined;

  async function read(): Promise<void> {
    const now = d.clock.now().getTime();
    const full = !loaded || now - lastFullMs >= fullEveryMs;
    const rows = await erasedSince(d.ch, d.database, full ? 0 : Math.max(0, newestMs - overlapMs));
    if (full) {
      erased.clear();
      pseudonyms.clear();
    }
    for (const r of rows) {
      if (r.pseudonym === '') erased.add(key(r.domain, r.aggregateId));
      else pseudonyms.set(key(r.domain, r.aggregateId), r.pseudonym);
      newestMs = Math.max(newestMs, r.erasedAtMs);
    }
    if (full) lastFullMs = now;
    lastReadMs = now;
    loaded = true;
  }

  function refresh(): Promise<void> {
    // One read at a time: callers arriving meanwhile share it.
    inFlight ??= read()
      .catch((err: unknown) => {
        failed++;
        if (!loaded) throw new StoreUnavailableError('clickhouse', err);
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  // With the loop running (the projector) a flush never waits for a read: the loop keeps the set at
  // most one interval old, which the erasure's 3-interval wait covers. Without it, a stale set is read first.
  const fresh = async () => {
    if (!loaded || (!loop && d.clock.now().getTime() - lastReadMs >= d.refreshMs)) await refresh();
  };
  return {
    isErased: (domain, id) => erased.has(key(domain, id)),
    async erasedAmong(domain, aggregateIds) {
      await fresh();
      return new Set(aggregateIds.filter((id) => erased.has(key(domain, id))));
    },
    async pseudonymsAmong(domain, aggregateIds) {
      await fresh();
      const out = new Map<string, string>();
      for (const id of aggregateIds) {
        const p = pseudonyms.get(key(domain, id));
        if (p !== undefined) out.set(id, p);
      }
      return out;
    },
    refresh,
    start() {
      if (loop) return;
      const stopped = new AbortController();
      const run = async () => {
        while (!stopped.signal.aborted) {
          await refresh().catch(() => undefined); // counted in failures(); the next round tries again
          await sleep(d.refreshMs, stopped.signal);
        }
      };
      loop = { stopped, done: run() };
    },
    async stop() {
      if (!loop) return;
      loop.stopped.abort();
      await loop.done;
      loop = undefined;
    },
    size: () => erased.size + pseudonyms.size,
    failures: () => failed,
  };
}
