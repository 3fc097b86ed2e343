// The fitness domain as one module: student fitness results on the MySQL shards, published through the
// transactional outbox by default, projected into fitness_results, reconciled per campaign.
import { domainAccess, type DomainModule } from '../contract/domainModule';
import { fitnessSourceErasure } from './erasure/fitnessSourceErasure';
import { fitnessMembership, fitnessPolicy } from './policy';
import { fitnessProjection } from './projection/fitnessProjection';
import { fitnessReconciliation } from './reconciliation/fitnessReconciliation';
import { shardOfAggregateId } from './sharding';

export const fitnessModule: DomainModule = {
  name: 'fitness',
  topicSuffix: 'fitness-results',
  tokenCode: 'f',
  store: 'mysql-shards',
  defaultStrategy: 'outbox',
  strategySetting: 'fitnessStrategy',
  access: domainAccess({
    policy: fitnessPolicy,
    membership: fitnessMembership,
    scopeFields: ['detectId', 'projectId', 'schoolId', 'grade', 'userId'],
  }),
  projection: fitnessProjection,
  reconciliation: fitnessReconciliation,
  // dataId = localSequence * 100 + shard: an id is asked on its own shard only.
  shardOfAggregate: shardOfAggregateId,
  // A student is erased by deleting every result, deletion-log entry, key and publication row (docs/erasure.md).
  erasure: {
    subject: 'student',
    mode: 'delete',
    subjectField: 'userId',
    source: (stores, clock) => fitnessSourceErasure({ shards: stores.mysql, clock }),
  },
};
