// Port: how many publications in a scope are not on Kafka yet, read from the authoritative stores.
// Adapter over every store that can hold a domain's publication rows: each MySQL shard for a domain
// whose module says 'mysql-shards', the PostgreSQL database for one that says 'postgres', each with
// both tables (outbox_events for the outbox strategy, event_publications for kafka-first), so the
// answer is right whichever strategy is configured.
// Stores are asked in parallel, each with a timeout; a store that does not answer is reported as
// unavailable (the marker then says STALE/STATE_UNKNOWN) instead of failing the read.
import type { Knex } from 'knex';
import { domainModule } from '../../domains/registry';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import type { Domain } from '../../publication/event';
import { emptyPending, mergePending, type Known, type PendingSummary } from './decideFreshness';
import { countPendingEventPublications, FALLBACK_STUCK } from '../../publication/kafkaFirst/sql/countPendingEventPublications';
import { countPendingOutboxEvents, OUTBOX_STUCK } from '../../publication/outbox/sql/countPendingOutboxEvents';
import type { PendingCountRow, PendingScope } from '../../publication/pendingScope';
import { OperationTimeoutError, withTimeout } from '../../shared/timeout';

export interface PendingPublications {
  summarize(scope: PendingScope): Promise<Known<PendingSummary>>;
  /**
   * Per aggregate id (ids without pending rows map to an empty summary). Only rows in `scope` count
   * (its membership: the caller's scope), so an aggregate the caller may not see reads as one with
   * nothing pending, exactly like an id that does not exist.
   */
  byAggregate(scope: PendingScope, ids: string[]): Promise<Known<Map<string, PendingSummary>>>;
  /**
   * Every aggregate of `scope` with a publication still on its way to Kafka (PARKED / DEAD_LETTER are
   * not on their way: they need an operator). A reconciliation takes these as in flight.
   */
  pendingAggregates(scope: PendingScope): Promise<Known<Set<string>>>;
}

interface Store {
  name: string;
  db: Knex;
}

const STUCK: ReadonlySet<string> = new Set([...OUTBOX_STUCK, ...FALLBACK_STUCK]);

function fold(rows: PendingCountRow[]): PendingSummary {
  return rows.reduce<PendingSummary>(
    (acc, r) =>
      mergePending(acc, { pending: STUCK.has(r.status) ? 0 : r.n, stuck: STUCK.has(r.status) ? r.n : 0, oldestAtMs: r.oldest.getTime() }),
    emptyPending(),
  );
}

/** A read that did not answer in time: the store is unavailable for this freshness check. */
const readWithin = <T>(p: Promise<T>, ms: number): Promise<T> =>
  withTimeout(p, ms, () => new OperationTimeoutError('pending publications read', ms, 'STORE_UNAVAILABLE'));

async function both(store: Store, scope: PendingScope, ids?: string[] | 'each'): Promise<PendingCountRow[]> {
  const fields = domainModule(scope.domain).access.scopeFields;
  const [a, b] = await Promise.all([
    countPendingOutboxEvents(store.db, scope, fields, ids),
    countPendingEventPublications(store.db, scope, fields, ids),
  ]);
  return [...a, ...b];
}

export function fromPublicationStores(d: {
  shards: MysqlShards;
  pg: Knex;
  timeoutMs?: number;
  onError?: (store: string, err: unknown) => void;
}): PendingPublications {
  const timeoutMs = d.timeoutMs ?? 2000;
  const shardStores: Store[] = d.shards.shards.map((s) => ({ name: `mysql shard ${s.index}`, db: s.db }));
  const pgStores: Store[] = [{ name: 'postgres', db: d.pg }];
  const storesOf = (domain: Domain): Store[] => (domainModule(domain).store === 'mysql-shards' ? shardStores : pgStores);

  /** Which store is asked for which ids: each on the shard it names, if the domain's ids name one. */
  function idJobs(domain: Domain, ids: string[]): { store: Store; ids: string[] }[] {
    const m = domainModule(domain);
    const shardOf = m.store === 'mysql-shards' ? m.shardOfAggregate : undefined;
    if (!shardOf) return ids.length ? storesOf(domain).map((store) => ({ store, ids })) : [];
    const perShard = new Map<number, string[]>();
    for (const id of ids) {
      const shard = shardOf(id);
      if (shard === undefined || !shardStores[shard]) continue;
      perShard.set(shard, [...(perShard.get(shard) ?? []), id]);
    }
    return [...perShard].map(([shard, list]) => ({ store: shardStores[shard]!, ids: list }));
  }

  async function ask(jobs: { store: Store; ids?: string[] | 'each' }[], scope: PendingScope): Promise<Known<PendingCountRow[]>> {
    const results = await Promise.allSettled(jobs.map((j) => readWithin(both(j.store, scope, j.ids), timeoutMs)));
    const unavailable: string[] = [];
    const rows: PendingCountRow[] = [];
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') rows.push(...r.value);
      else {
        unavailable.push(jobs[i]!.store.name);
        d.onError?.(jobs[i]!.store.name, r.reason);
      }
    });
    return unavailable.length ? { ok: false, unavailable } : { ok: true, value: rows };
  }

  return {
    async summarize(scope) {
      const r = await ask(
        storesOf(scope.domain).map((store) => ({ store })),
        scope,
      );
      return r.ok ? { ok: true, value: fold(r.value) } : r;
    },
    async byAggregate(scope, ids) {
      const unique = [...new Set(ids)];
      const r = await ask(idJobs(scope.domain, unique), scope);
      if (!r.ok) return r;
      const out = new Map(unique.map((id) => [id, emptyPending()]));
      for (const row of r.value) {
        if (row.aggregateId === undefined || !out.has(row.aggregateId)) continue;
        out.set(row.aggregateId, mergePending(out.get(row.aggregateId)!, fold([row])));
      }
      return { ok: true, value: out };
    },
    async pendingAggregates(scope) {
      const r = await ask(
        storesOf(scope.domain).map((store) => ({ store, ids: 'each' as const })),
        scope,
      );
      if (!r.ok) return r;
      return {
        ok: true,
        value: new Set(r.value.filter((row) => !STUCK.has(row.status) && row.aggregateId).map((row) => String(row.aggregateId))),
      };
    },
  };
}
