// The GraphQL shape of an erasure (docs/erasure.md): its status, each store's progress and the
// certificate. It never carries the person's id: the operator who asked knows it, a list of
// erasures must not become a list of erased people.
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { ErasureKind } from '../../domains/contract/erasure';
import type { ErasureStatus } from '../../erasure/ledger/records';
import { CURSOR } from '../connection';
import { enumOf } from '../shared/enums';

export const ErasureStatusEnum = enumOf<ErasureStatus>(['REQUESTED', 'ERASING', 'VERIFYING', 'COMPLETED']);
registerEnumType(ErasureStatusEnum, {
  name: 'ErasureStatus',
  description:
    'REQUESTED: recorded, not yet started. ERASING: stores are being erased. VERIFYING: every store is being searched for the ' +
    'person; an erasure whose search found something stays here (and alerts) while that store is erased again. COMPLETED: ' +
    'every store searched clean; the certificate is final.',
});
export const ErasureKindEnum = enumOf<ErasureKind>(['student', 'customer']);
registerEnumType(ErasureKindEnum, { name: 'ErasureKind', description: 'Whose data: a student (fitness results) or a customer (orders).' });

@ObjectType('ErasureStoreProgress', { description: "One store's erase steps so far." })
export class ErasureStoreProgressView {
  @Field(() => String, { description: 'mysql, postgres, kafka, clickhouse, reconciliation-ledger.' }) store!: string;
  @Field(() => Boolean, { description: 'Nothing left to erase in this store.' }) done!: boolean;
  @Field(() => Int, { description: 'Rows, records or tombstones its steps touched.' }) affected!: number;
  @Field(() => Int) steps!: number;
  @Field(() => String, { nullable: true, description: 'What it waits for (a compaction, a mutation); never personal data.' })
  note!: string | null;
  @Field(() => GraphQLDateTimeISO) at!: Date;
}

@ObjectType('ErasureCertificateEntry', { description: "One store's line of the certificate: what was searched, when, and what was found." })
export class ErasureCertificateEntryView {
  @Field(() => String) store!: string;
  @Field(() => [String], { description: 'The tables, topics (from the earliest offset) or ledgers searched.' }) searched!: string[];
  @Field(() => GraphQLDateTimeISO) searchedAt!: Date;
  @Field(() => Int, { description: 'Readable traces of the person found; a completed erasure has 0 in every line.' }) found!: number;
  @Field(() => String, { nullable: true }) note!: string | null;
}

@ObjectType('Erasure', { description: "An erasure of one person's data from every store, with its audit record and certificate." })
export class ErasureView {
  @Field(() => ID) id!: string;
  @Field(() => String, CURSOR) cursor!: string;
  @Field(() => ErasureKindEnum) kind!: ErasureKind;
  @Field(() => String) domain!: string;
  @Field(() => ErasureStatusEnum) status!: ErasureStatus;
  @Field(() => String, {
    description: 'Keyed hash (ERASURE_HASH_SECRET) of the person: links requests about the same person, reveals nobody.',
  })
  subjectHash!: string;
  @Field(() => String, { description: 'Why (as given by the operator).' }) reason!: string;
  @Field(() => String, { description: 'The token subject of the operator who asked.' }) requestedBy!: string;
  @Field(() => GraphQLDateTimeISO) requestedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'requestedAt + ERASURE_DEADLINE_HOURS.' }) deadlineAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) completedAt!: Date | null;
  @Field(() => Int, { description: 'Aggregates (results, orders) the erasure covers: those the source held when it was asked.' })
  aggregates!: number;
  @Field(() => [ErasureStoreProgressView]) stores!: ErasureStoreProgressView[];
  @Field(() => [ErasureCertificateEntryView], {
    nullable: true,
    description: 'The last verification, per store; final once COMPLETED. Null before the first verification.',
  })
  certificate!: ErasureCertificateEntryView[] | null;
  @Field(() => Int, { description: 'Traces the last verification found.' }) findings!: number;
  @Field(() => Int, { description: 'Passes that failed (an engine down); each is retried.' }) failedAttempts!: number;
  @Field(() => String, { nullable: true, description: 'Error code of the last failed pass.' }) lastError!: string | null;
}
