// Builds the executable schema from every domain's type-graphql resolvers. This list is the one
// place a domain's GraphQL surface is registered.
import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { authChecker } from './auth';
import { HealthResolver } from './health.resolver';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [HealthResolver];

let cached: Promise<GraphQLSchema> | undefined;

/** The gateway schema (built once per process: type-graphql metadata is global). */
export function gatewaySchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({ resolvers, validate: false, emitSchemaFile: false, authChecker, authMode: 'error' });
  return cached;
}

export async function printGatewaySchema(): Promise<string> {
  // Sorted so the committed file only changes when the schema does, not when resolvers move.
  return `${printSchema(lexicographicSortSchema(await gatewaySchema()))}\n`;
}
