/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The domain an event belongs to. */
export type EventDomain =
  | 'fitness'
  | 'orders';

/** A publication state, or PROJECTION_APPLIED once the read model holds the event. */
export type ObservedPublicationState =
  | 'DEAD_LETTER'
  | 'FAILED'
  | 'FALLBACK_STORE_FAILED'
  | 'NEW'
  | 'NOT_PUBLISHED'
  | 'PARKED'
  | 'PROCESSING'
  | 'PROJECTION_APPLIED'
  | 'PUBLISHED'
  | 'PUBLISHED_DIRECT'
  | 'SENT';

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { health: { ready: boolean, instanceId: string, roles: Array<string>, version: string, stores: Array<{ store: string, up: boolean }> } };

export type PublicationStateChangedSubscriptionVariables = Exact<{
  domain?: EventDomain | null | undefined;
  states?: Array<ObservedPublicationState> | ObservedPublicationState | null | undefined;
  aggregateId?: string | null | undefined;
}>;


export type PublicationStateChangedSubscription = { publicationStateChanged: { eventId: string, domain: EventDomain, aggregateId: string, version: number, from: ObservedPublicationState | null, to: ObservedPublicationState, attempt: number, at: string } };


export const HealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ready"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"up"}}]}}]}}]}}]} as unknown as DocumentNode<HealthQuery, HealthQueryVariables>;
export const PublicationStateChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PublicationStateChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"states"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ObservedPublicationState"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"aggregateId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicationStateChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}},{"kind":"Argument","name":{"kind":"Name","value":"states"},"value":{"kind":"Variable","name":{"kind":"Name","value":"states"}}},{"kind":"Argument","name":{"kind":"Name","value":"aggregateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"aggregateId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<PublicationStateChangedSubscription, PublicationStateChangedSubscriptionVariables>;