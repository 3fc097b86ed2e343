// The fitness SourceReader: the authoritative rows of a campaign live on every shard (results are
// routed by student, not by campaign), so each question is asked of every shard in parallel and the
// answers combined: revisions and counts add up, bucket digests combine by XOR, states concatenate
// (an aggregate lives on exactly one shard: dataId % 100).
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import { fitnessEvent } from '../../domains/fitness/events';
import type { FitnessResultState } from '../../domains/fitness/types';
import type { DomainEvent } from '../../publication/event';
import { combineBuckets } from '../canonical/canonical';
import type { SourceRevision } from '../model';
import type { SourceReader } from '../ports';
import type { CampaignScope, Scope } from '../scope';
import { readShardStates } from './sql/readAuthoritative';
import { shardBuckets } from './sql/sourceBuckets';
import { shardCounts } from './sql/sourceCounts';
import { shardRevision } from './sql/sourceRevision';
import { shardStates } from './sql/sourceStates';

function campaign(scope: Scope): CampaignScope {
  if (scope.domain !== 'fitness') throw new TypeError('not a fitness scope');
  return scope;
}

/** The event of a state, exactly as the write path built it: same type rule, version and eventId. */
export function eventOfState(s: FitnessResultState): DomainEvent {
  return fitnessEvent(s.isDeleted ? 'FitnessResultDeleted' : s.version === 1 ? 'FitnessResultRecorded' : 'FitnessResultCorrected', s);
}

export function fitnessSource(mysql: Pick<MysqlShards, 'shards'>): SourceReader {
  const each = <T>(f: (db: MysqlShards['shards'][number]['db']) => Promise<T>) => Promise.all(mysql.shards.map((s) => f(s.db)));
  return {
    domain: 'fitness',
    async revision(scope) {
      const parts = await each((db) => shardRevision(db, campaign(scope)));
      return parts.reduce<SourceRevision>(
        (a, p) => ({
          aggregates: a.aggregates + p.aggregates,
          live: a.live + p.live,
          versionSum: a.versionSum + p.versionSum,
          maxCommitMs: Math.max(a.maxCommitMs, p.maxCommitMs),
        }),
        { aggregates: 0, live: 0, versionSum: 0, maxCommitMs: 0 },
      );
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
      return states.sort((a, b) => a.dataId - b.dataId).map(eventOfState);
    },
  };
}
