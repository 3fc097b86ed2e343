// The erasure's fault cycle (issue: "relay and projector killed during the erasure"): a student and a
// customer outside the workload are seeded through the gateway (a result corrected, one deleted, one
// kept; two orders), erased by an operator (the customer pseudonymised), and once the erasures have
// started, the relay, the projector and the reconciler that runs them are SIGKILLed together and
// started again. Each erasure must resume by itself and end as it does without faults: COMPLETED, every
// certificate line 0, and an independent search finding no readable trace of either in any shard,
// PostgreSQL or ClickHouse table or topic.
import type { Resources } from '../../../src/app/resources';
import { waitFor } from '../../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  DeleteFitnessResultDocument,
  EraseCustomerDocument,
  EraseStudentDocument,
  PlaceOrderDocument,
  ErasureDocument,
  RecordFitnessResultDocument,
  type ErasureQuery,
} from '../../generated/graphql';
import { scanClickHouse, scanKafka, scanPostgres, scanShards, type CustomerTraces, type Traces } from '../../support/erasureScan';
import { call } from '../../support/timedClient';

export type ErasureAnswer = NonNullable<ErasureQuery['erasure']>;

const T = 30000;

/** Records three results of `userId` (one corrected, one deleted) in `detectId`; returns what would trace them. */
export async function seedStudent(url: string, client: Record<string, string>, detectId: number, userId: number): Promise<Traces> {
  const input = { detectId, userId, projectId: 3, schoolId: 78, grade: 5, unit: 'm' };
  const ids: string[] = [];
  for (const result of ['3.481', '3.482', '3.483']) {
    const r = await call(url, RecordFitnessResultDocument, { input: { ...input, result } }, client, T);
    ids.push(r.data!.recordFitnessResult.result.dataId);
  }
  await call(url, CorrectFitnessResultDocument, { dataId: ids[0]!, expectedVersion: 1, result: '3.484', unit: 'm' }, client, T);
  await call(url, DeleteFitnessResultDocument, { dataId: ids[1]!, expectedVersion: 1 }, client, T);
  return { userId, dataIds: ids, values: ['3.481', '3.482', '3.483', '3.484'] };
}

/** Places two orders of `customerId` (outside the workload's customers); returns what would trace them. */
export async function seedCustomer(url: string, client: Record<string, string>, customerId: string): Promise<CustomerTraces> {
  for (const unitPrice of ['12.5', '7'])
    await call(
      url,
      PlaceOrderDocument,
      {
        input: {
          customerId,
          currency: 'EUR',
          idempotencyKey: `fault-erase-${customerId}-${unitPrice}`,
          items: [{ sku: 'SKU-E', quantity: 1, unitPrice }],
        },
      },
      client,
      T,
    );
  return { customerId };
}

/** Starts the customer's erasure (pseudonymisation); the runner takes it up with the student's. */
export async function startCustomerErasure(url: string, operator: Record<string, string>, customerId: string): Promise<string> {
  const r = await call(url, EraseCustomerDocument, { customerId, reason: 'fault suite: pseudonymised under kills' }, operator, T);
  return r.data!.eraseCustomer.id;
}

/** Starts the erasure and returns once it has left REQUESTED (a runner took it up). */
export async function startErasure(url: string, operator: Record<string, string>, userId: number): Promise<string> {
  const r = await call(url, EraseStudentDocument, { userId, reason: 'fault suite: erased under kills' }, operator, T);
  const id = r.data!.eraseStudent.id;
  await waitFor(async () => (await erasureOf(url, operator, id)).status !== 'REQUESTED', {
    timeoutMs: 60000,
    intervalMs: 100,
    what: 'the erasure started',
  });
  return id;
}

export async function erasureOf(url: string, operator: Record<string, string>, id: string): Promise<ErasureAnswer> {
  const r = await call(url, ErasureDocument, { id }, operator, T);
  return r.data!.erasure!;
}

/** Waits for COMPLETED (within the 5 minutes). */
export function completed(url: string, operator: Record<string, string>, id: string): Promise<ErasureAnswer> {
  return waitFor(
    async () => {
      const e = await erasureOf(url, operator, id).catch(() => undefined);
      return e?.status === 'COMPLETED' ? e : undefined;
    },
    { timeoutMs: 300000, intervalMs: 500, what: 'the erasure to complete after the kills' },
  );
}

/** Every hit of the independent search (none is the only good answer). */
export async function tracesLeft(r: Resources, t: Traces): Promise<string[]> {
  return [
    ...(await scanShards(r.mysql.shards, t)),
    ...(await scanPostgres(r.pg, t)),
    ...(await scanClickHouse(r.clickhouse, r.settings.clickhouseDatabase, t)),
    ...(await scanKafka(r.kafka, r.settings.kafkaTopicPrefix, t)),
  ];
}
