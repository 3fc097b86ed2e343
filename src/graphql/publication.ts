// Shared GraphQL types for publication status, used by every domain's mutation payloads (fitness,
// orders) and operator views. One definition, so the schema has one `PublicationState` enum and one
// `Publication` type whatever the strategy.
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import type { PublicationOutcome, PublicationState } from '../publication/publisher';

const STATES: Record<PublicationState, PublicationState> = {
  NEW: 'NEW',
  PROCESSING: 'PROCESSING',
  SENT: 'SENT',
  FAILED: 'FAILED',
  PARKED: 'PARKED',
  PUBLISHED_DIRECT: 'PUBLISHED_DIRECT',
  NOT_PUBLISHED: 'NOT_PUBLISHED',
  PUBLISHED: 'PUBLISHED',
  DEAD_LETTER: 'DEAD_LETTER',
  FALLBACK_STORE_FAILED: 'FALLBACK_STORE_FAILED',
};

export const PublicationStateEnum = STATES;
registerEnumType(PublicationStateEnum, {
  name: 'PublicationState',
  description:
    'Where an event is on its way to Kafka. Outbox: NEW, PROCESSING, SENT (broker acknowledged), FAILED (retry scheduled), ' +
    'PARKED (attempts exhausted; operator replay). ' +
    'Kafka-first: PUBLISHED_DIRECT, NOT_PUBLISHED (fallback row stored), PUBLISHED (by the relay), DEAD_LETTER, FALLBACK_STORE_FAILED.',
});

@ObjectType({ description: 'The publication of one event: its stable id and its state when the mutation returned.' })
export class Publication implements PublicationOutcome {
  @Field(() => String, { description: 'Stable per (aggregate, version), e.g. fitness-result-900001-v2.' })
  eventId!: string;

  @Field(() => PublicationStateEnum)
  state!: PublicationState;
}
