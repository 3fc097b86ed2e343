// Builds the executable schema from every domain's type-graphql resolvers. This list is the one
// place a domain's GraphQL surface is registered.
import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray, type PubSub } from 'type-graphql';
import { authChecker } from './auth';
import { HealthResolver } from './health.resolver';
import { PublicationStateResolver } from './subscriptions/publicationState.resolver';
import { PublicationHealthResolver } from './operators/publicationHealth.resolver';
import { OrdersResolver } from './orders/orders.resolver';
import { KafkaFirstPublicationsResolver } from './operators/publications.resolver';
import { FitnessResolver } from './fitness/fitness.resolver';
import { OutboxOperatorResolver } from './operators/outbox.resolver';
import { FitnessQueriesResolver } from './queries/fitnessQueries.resolver';
import { OrderQueriesResolver } from './queries/orderQueries.resolver';
import { ReconciliationResolver } from './reconciliation/reconciliation.resolver';
import { ReconciliationRunsResolver } from './reconciliation/runs.resolver';
import { ProjectorDeadLettersResolver } from './operators/projectorDeadLetters.resolver';
import { DiscardDeadLettersResolver } from './operators/discardDeadLetters.resolver';
import { MigrationsResolver } from './operators/migrations.resolver';
import { ErasureResolver } from './operators/erasure.resolver';
import { FreshnessMissingResolver } from './queries/consistency.types';
import { WriteVisibleResolver } from './subscriptions/writeVisible.resolver';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  HealthResolver,
  PublicationStateResolver,
  PublicationHealthResolver,
  OrdersResolver,
  KafkaFirstPublicationsResolver,
  FitnessResolver,
  OutboxOperatorResolver,
  FitnessQueriesResolver,
  OrderQueriesResolver,
  ReconciliationResolver,
  ReconciliationRunsResolver,
  ProjectorDeadLettersResolver,
  ErasureResolver,
  DiscardDeadLettersResolver,
  MigrationsResolver,
  FreshnessMissingResolver,
  WriteVisibleResolver,
];

// Every subscription brings its own `subscribe` (fed by the state-change hub), so type-graphql's
// topic-based PubSub is never used; it still insists on having one.
const noTopicPubSub: PubSub = {
  publish: () => undefined,
  subscribe: () => {
    throw new Error('topic subscriptions are not used; give the @Subscription a subscribe function');
  },
};

const cached = new Map<string, Promise<GraphQLSchema>>();

/**
 * The gateway schema: the built-in resolvers and those of domains registered from outside src/
 * (`domainResolvers`: DomainModule.gateway). Built once per resolver set (type-graphql metadata is global).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function gatewaySchema(domainResolvers: readonly Function[] = []): Promise<GraphQLSchema> {
  const key = domainResolvers.map((r) => r.name).join(',');
  let schema = cached.get(key);
  if (!schema) {
    const all = [...resolvers, ...domainResolvers] as NonEmptyArray<(typeof resolvers)[number]>;
    schema = buildSchema({ resolvers: all, validate: false, emitSchemaFile: false, authChecker, authMode: 'error', pubSub: noTopicPubSub });
    cached.set(key, schema);
  }
  return schema;
}

export async function printGatewaySchema(): Promise<string> {
  // Sorted so the committed file only changes when the schema does, not when resolvers move.
  return `${printSchema(lexicographicSortSchema(await gatewaySchema()))}\n`;
}
