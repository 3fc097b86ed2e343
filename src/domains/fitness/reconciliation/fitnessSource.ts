// The fitness SourceReader: the authoritative rows of a campaign live on every shard (results are
// routed by student, not by campaign), so each question is asked of every shard in parallel and the
// answers combined: revisions and counts add up, bucket digests combine by XOR, states concatenate
// (an aggregate lives on exactly one shard: dataId % 100).
import type { MysqlShards } from '../../../infra/mysql/fromMysql';
import { fitnessEvent } from '../events';
import type { FitnessResultState } from '../types';
import type { DomainEvent } from '../../../publication/event';
import type { EventSchemaVersions } from '../../../publication/schemaVersions';
import { isConnectionError, StoreUnavailableError } from '../../../shared/errors';
import { combineBuckets } from '../../contract/canonical';
import type { SourceRevision } from '../../contract/sourceState';
import type { SourceReader, SourceSnapshot } from '../../contract/sourceReader';
import type { CampaignScope } from './campaignScope';
import type { ScopeBase } from '../../contract/scope';
import { readShardStates } from './sql/readAuthoritative';
import { openShardSnapshot } from './sql/shardSnapshot';
import { shardBuckets } from './sql/sourceBuckets';
import { shardCounts } from './sql/sourceCounts';
import { shardRevision } from './sql/sourceRevision';
import { shardStates } from './sql/sourceStates';

function campaign(scope: ScopeBase): CampaignScope {
  if (scope.domain !== 'fitness') throw new TypeError('not a fitness scope');
  return scope as CampaignScope;
}

/**
 * The event of a state, as the write path built it: same type rule, version and eventId, in
 * `schemaVersion` (a repair that publishes passes the version every live reader reads; version 1, the
 * one every reader knows, by default).
 */
export function eventOfState(s: FitnessResultState, schemaVersion = 1): DomainEvent {
  const type = s.isDeleted ? 'FitnessResultDeleted' : s.version === 1 ? 'FitnessResultRecorded' : 'FitnessResultCorrected';
  return fitnessEvent(type, s, schemaVersion);
}

const addRevisions = (parts: SourceRevision[]): SourceRevision =>
  parts.reduce<SourceRevision>(
    (a, p) => ({
      aggregates: a.aggregates + p.aggregates,
      live: a.live + p.live,
      versionSum: a.versionSum + p.versionSum,
      maxCommitMs: Math.max(a.maxCommitMs, p.maxCommitMs),
    }),
    { aggregates: 0, live: 0, versionSum: 0, maxCommitMs: 0 },
  );

/** `schemaVersions`: the version a republished event is built in (the process's gate; version 1 without one). */
export function fitnessSource(mysql: Pick<MysqlShards, 'shards'>, schemaVersions?: EventSchemaVersions): SourceReader {
  // A shard that cannot be read is named (STORE_UNAVAILABLE, details.store "mysql shard 1"): the run's
  // outcome then says which shard to look at, not just that MySQL failed somewhere.
  const each = <T>(f: (db: MysqlShards['shards'][number]['db']) => Promise<T>) =>
    Promise.all(
      mysql.shards.map((s) =>
        f(s.db).catch((err: unknown) =>
          Promise.reject(isConnectionError(err) ? new StoreUnavailableError(`mysql shard ${s.index}`, err) : err),
        ),
      ),
    );
  return {
    domain: 'fitness',
    async revision(scope) {
      return addRevisions(await each((db) => shardRevision(db, campaign(scope))));
    },
    async counts(scope) {
      const out = new Map<string, number>();
      for (const m of await each((db) => shardCounts(db, campaign(scope)))) for (const [k, n] of m) out.set(k, (out.get(k) ?? 0) + n);
      return out;
    },
    async buckets(scope, level, count) {
      return [...combineBuckets((await each((db) => shardBuckets(db, campaign(scope), level, count))).flat()).values()];
    },
    async states(scope, level, filter) {
      return (await each((db) => shardStates(db, campaign(scope), level, filter))).flat();
    },
    async events(scope, ids) {
      const states = (await each((db) => readShardStates(db, campaign(scope), ids))).flat();
      const schemaVersion = schemaVersions?.toWrite('fitness') ?? 1;
      return states.sort((a, b) => a.dataId - b.dataId).map((x) => eventOfState(x, schemaVersion));
    },
    async openSnapshot(scope): Promise<SourceSnapshot> {
      const c = campaign(scope);
      // Every shard's snapshot is opened in parallel; if one fails, those opened are ended.
      const opened = await Promise.allSettled(mysql.shards.map((s) => openShardSnapshot(s.db, c)));
      const ok = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const endAll = () => Promise.all(ok.map((o) => o.trx.commit().catch(() => undefined))).then(() => undefined);
      const failedAt = opened.findIndex((o) => o.status === 'rejected');
      if (failedAt >= 0) {
        await endAll();
        const err = (opened[failedAt] as PromiseRejectedResult).reason as unknown;
        throw isConnectionError(err) ? new StoreUnavailableError(`mysql shard ${mysql.shards[failedAt]!.index}`, err) : err;
      }
      const inEach = <T>(f: (trx: MysqlShards['shards'][number]['db']) => Promise<T>) =>
        Promise.all(
          ok.map((o, i) =>
            f(o.trx).catch((err: unknown) =>
              Promise.reject(isConnectionError(err) ? new StoreUnavailableError(`mysql shard ${mysql.shards[i]!.index}`, err) : err),
            ),
          ),
        );
      let closed: Promise<void> | undefined;
      return {
        revision: addRevisions(ok.map((o) => o.revision)),
        async counts() {
          const out = new Map<string, number>();
          for (const m of await inEach((trx) => shardCounts(trx, c))) for (const [k, n] of m) out.set(k, (out.get(k) ?? 0) + n);
          return out;
        },
        buckets: async (level, count) => [...combineBuckets((await inEach((trx) => shardBuckets(trx, c, level, count))).flat()).values()],
        states: async (level, filter) => (await inEach((trx) => shardStates(trx, c, level, filter))).flat(),
        close: () => (closed ??= endAll()),
      };
    },
  };
}
