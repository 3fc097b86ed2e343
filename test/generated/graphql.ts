/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

/** This gateway process and the stores it depends on. */
export type Health = {
  __typename?: 'Health';
  instanceId: Scalars['String']['output'];
  /** True when every store answers. */
  ready: Scalars['Boolean']['output'];
  /** Roles this process runs: gateway, relay, projector, reconciler. */
  roles: Array<Scalars['String']['output']>;
  stores: Array<StoreHealth>;
  version: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** Readiness of this gateway and its stores. */
  health: Health;
};

/** Whether one backing store answers right now. */
export type StoreHealth = {
  __typename?: 'StoreHealth';
  /** mysql | postgres | kafka | clickhouse */
  store: Scalars['String']['output'];
  up: Scalars['Boolean']['output'];
};

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { health: { ready: boolean, instanceId: string, roles: Array<string>, version: string, stores: Array<{ store: string, up: boolean }> } };


export const HealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ready"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"up"}}]}}]}}]}}]} as unknown as DocumentNode<HealthQuery, HealthQueryVariables>;