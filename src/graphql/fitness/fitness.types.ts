// GraphQL types of the fitness write path. Results are exact decimals (the Decimal scalar, a string
// on the wire); dataId is an ID because it exceeds GraphQL's 32-bit Int.
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { FitnessResultState } from '../../domains/fitness/types';
import { Publication } from '../publication';
import { DecimalScalar } from '../scalars';

@ObjectType({ description: 'One fitness result at one version, as the authoritative shard committed it.' })
export class FitnessResult {
  @Field(() => ID, { description: 'Stable id; dataId % 100 is the shard it lives on.' }) dataId!: string;
  @Field(() => Int, { description: 'The test campaign.' }) detectId!: number;
  @Field(() => Int, { description: 'The student.' }) userId!: number;
  @Field(() => Int, { description: 'The test item, e.g. 3 = standing long jump.' }) projectId!: number;
  @Field(() => Int) schoolId!: number;
  @Field(() => Int) grade!: number;
  @Field(() => DecimalScalar, { description: 'Exact, canonical with 3 decimals, e.g. "2.310".' }) result!: string;
  @Field(() => String, { description: 'm, cm, s, count, ml (allowed units depend on the project).' }) unit!: string;
  @Field(() => Int, { description: 'The record version; advances by one per change.' }) version!: number;
  @Field(() => Boolean, { description: 'True for the tombstone version of a deleted result.' }) isDeleted!: boolean;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'Commit time of this version on the shard clock.' }) updatedAt!: Date;
  @Field(() => Int) shard!: number;
}

export function toFitnessResult(s: FitnessResultState): FitnessResult {
  return { ...s, dataId: String(s.dataId) };
}

@ObjectType({ description: 'The committed state after a fitness mutation and the publication of its event.' })
export class FitnessResultPayload {
  @Field(() => FitnessResult) result!: FitnessResult;
  @Field(() => Publication) publication!: Publication;
  @Field(() => Boolean, {
    description: 'True when the idempotency key matched an earlier request and its first result was returned; nothing was written.',
  })
  replayed!: boolean;
}

@InputType({ description: 'A new fitness result.' })
export class RecordFitnessResultInput {
  @Field(() => Int) detectId!: number;
  @Field(() => Int) userId!: number;
  @Field(() => Int) projectId!: number;
  @Field(() => Int) schoolId!: number;
  @Field(() => Int) grade!: number;
  @Field(() => DecimalScalar, { description: 'Non-negative, at most 3 decimals, within the project range for the unit.' }) result!: string;
  @Field(() => String) unit!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Client key (1-128 of A-Z a-z 0-9 . _ : -): a retry with the same key returns the first result instead of writing twice.',
  })
  idempotencyKey?: string | null;
}
