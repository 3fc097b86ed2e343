// GraphQL types of the fitness write path. Results are exact decimals (the Decimal scalar, a string
// on the wire); dataId is an ID because it exceeds GraphQL's 32-bit Int. Who wrote a version
// (changedBy) is a question for operators and services (maySeeWriters): everyone else gets null, so
// subjects do not leak.
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { maySeeWriters, type Principal } from '../../auth/principal';
import type { FitnessResultState } from '../../domains/fitness/types';
import { Publication } from '../publication';
import { DecimalScalar } from '../scalars';

@ObjectType({ description: 'One fitness result at one version, as the authoritative shard committed it.' })
export class FitnessResult {
  @Field(() => ID, { description: 'Stable id; dataId % 100 is the shard it lives on.' }) dataId!: string;
  @Field(() => Int, { description: 'The test campaign.' }) detectId!: number;
  @Field(() => Int, { description: 'The student.' }) userId!: number;
  @Field(() => Int, { description: 'The test item, e.g. 3 = standing long jump.' }) projectId!: number;
  @Field(() => Int, { description: 'The school of this version (a correction may move a result to another school).' }) schoolId!: number;
  @Field(() => Int) grade!: number;
  @Field(() => DecimalScalar, { description: 'Exact, canonical with 3 decimals, e.g. "2.310".' }) result!: string;
  @Field(() => String, { description: 'm, cm, s, count, ml (allowed units depend on the project).' }) unit!: string;
  @Field(() => Int, { description: 'The record version; advances by one per change.' }) version!: number;
  @Field(() => Boolean, { description: 'True for the tombstone version of a deleted result.' }) isDeleted!: boolean;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'Commit time of this version on the shard clock.' }) updatedAt!: Date;
  @Field(() => Int) shard!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'Token subject that wrote this version (the deleter for a tombstone). Shown to operators and services only: null for ' +
      'every other role, and for versions written before it was recorded.',
  })
  changedBy!: string | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'When the test was taken; null when the teacher did not say.' })
  measuredAt!: Date | null;
}

export function toFitnessResult(s: FitnessResultState, viewer: Principal): FitnessResult {
  return { ...s, dataId: String(s.dataId), changedBy: maySeeWriters(viewer) ? s.changedBy : null, measuredAt: s.measuredAt ?? null };
}

@ObjectType({ description: 'The committed state after a fitness mutation and the publication of its event.' })
export class FitnessResultPayload {
  @Field(() => FitnessResult) result!: FitnessResult;
  @Field(() => Publication) publication!: Publication;
  @Field(() => Boolean, {
    description: 'True when the idempotency key matched an earlier request and its first result was returned; nothing was written.',
  })
  replayed!: boolean;
  @Field(() => String, {
    description:
      'Opaque token naming the version this mutation wrote (a replay: the first write). Pass it in `consistency.atLeast` of a ' +
      'read, or to writeVisible, to read your own write; valid for your own token subject only.',
  })
  consistencyToken!: string;
}

@InputType({ description: 'A new fitness result.' })
export class RecordFitnessResultInput {
  @Field(() => Int) detectId!: number;
  @Field(() => Int) userId!: number;
  @Field(() => Int) projectId!: number;
  @Field(() => Int, { description: 'A teacher may record only results of its own schools (FORBIDDEN otherwise).' }) schoolId!: number;
  @Field(() => Int) grade!: number;
  @Field(() => DecimalScalar, { description: 'Non-negative, at most 3 decimals, within the project range for the unit.' }) result!: string;
  @Field(() => String) unit!: string;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description: 'When the test was taken: not more than a minute ahead of the shard clock, not before 1970-01-02 (VALIDATION_FAILED).',
  })
  measuredAt?: Date | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Client key (1-128 of A-Z a-z 0-9 . _ : -), unique per caller: a retry by the same caller with the same key returns the first ' +
      'result instead of writing twice; another caller using the same key writes a result of its own.',
  })
  idempotencyKey?: string | null;
}
