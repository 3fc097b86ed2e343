// The fitness domain as one module: student fitness results on the MySQL shards, published through the
// transactional outbox by default, projected into fitness_results, reconciled per campaign.
import { domainAccess, type DomainModule } from '../contract/domainModule';
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
};
