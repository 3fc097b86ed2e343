// Shared set-up of the fitness write-path integration suites: a private environment with the real
// sharded MariaDB, the fitness service on the outbox publisher, and helpers that read the shards.
// `fitness` acts as the trusted test backend (role service, unscoped); `as(principal)` acts as anyone.
import type { Knex } from 'knex';
import type { Principal } from '../../src/auth/principal';
import { fitnessService, type FitnessService } from '../../src/domains/fitness/service';
import { fitnessOutboxPublisher } from '../../src/app/wiring/fitness';
import { TidemarkError } from '../../src/shared/errors';
import { TEST_SERVICE } from './principals';
import { createTestEnv, type TestEnv } from './testEnv';
import { discardStateChanges } from '../../src/publication/stateChanges/stateChange';

export const teacherInput = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' };

/** The fitness service with its acting principal bound, so a suite writes as one caller. */
export interface ActingFitness {
  record(cmd: Parameters<FitnessService['record']>[0]): ReturnType<FitnessService['record']>;
  correct(cmd: Parameters<FitnessService['correct']>[0]): ReturnType<FitnessService['correct']>;
  delete(cmd: Parameters<FitnessService['delete']>[0]): ReturnType<FitnessService['delete']>;
  get: FitnessService['get'];
}

export function actingAs(svc: FitnessService, actor: Principal): ActingFitness {
  return {
    record: (cmd) => svc.record(cmd, actor),
    correct: (cmd) => svc.correct(cmd, actor),
    delete: (cmd) => svc.delete(cmd, actor),
    get: (dataId) => svc.get(dataId),
  };
}

export interface OutboxRowView {
  event_id: string;
  version: number;
  status: string;
  message_key: string;
  message_value: string;
  topic: string;
}

export interface FitnessHarness {
  env: TestEnv;
  /** The service itself: every write takes its actor. */
  service: FitnessService;
  /** Writes as TEST_SERVICE. */
  fitness: ActingFitness;
  as(actor: Principal): ActingFitness;
  shardDb(i: number): Knex;
  /** Row counts of every fitness table and outbox on every shard (to show nothing changed). */
  counts(): Promise<number[]>;
  outboxOf(dataId: number): Promise<OutboxRowView[]>;
  /** The typed error a promise rejects with ({ code: 'NO_ERROR' } when it resolves). */
  codeOf(p: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }>;
}

export function useFitnessHarness(): FitnessHarness {
  const h = {
    shardDb: (i) => h.env.resources.mysql.shard(i).db,
    as: (actor) => actingAs(h.service, actor),
    async counts() {
      const out: number[] = [];
      for (const s of h.env.resources.mysql.shards)
        for (const t of ['fitness_results', 'fitness_result_deletions', 'outbox_events', 'fitness_idempotency_keys'])
          out.push(Number(((await s.db(t).count({ n: '*' })) as { n: number }[])[0]!.n));
      return out;
    },
    outboxOf: async (dataId) =>
      h
        .shardDb(dataId % 100)('outbox_events')
        .where({ aggregate_id: String(dataId) })
        .orderBy('version')
        .select('event_id', 'version', 'status', 'message_key', 'message_value', 'topic'),
    async codeOf(p) {
      try {
        await p;
      } catch (e) {
        return e instanceof TidemarkError ? { code: e.code, details: e.details } : { code: 'UNTYPED', details: {} };
      }
      return { code: 'NO_ERROR', details: {} };
    },
  } as FitnessHarness;
  beforeAll(async () => {
    h.env = await createTestEnv();
    h.service = fitnessService({ shards: h.env.resources.mysql, publisher: fitnessOutboxPublisher(h.env.resources, discardStateChanges) });
    h.fitness = actingAs(h.service, TEST_SERVICE);
  });
  afterAll(async () => {
    await h.env?.cleanup();
  });
  return h;
}
