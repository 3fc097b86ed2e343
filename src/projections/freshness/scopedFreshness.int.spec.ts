// Freshness within the caller's scope, from real pending rows (MySQL outbox, PostgreSQL fallback):
// a scope's marker counts only the pending publications of rows the caller could read (the newest
// version's school or student, the customer), and a per-aggregate marker for an id outside the
// caller's scope is exactly that of an id that does not exist. Projector progress is held fixed (no
// Kafka needed), and so is the clock, so equal inputs give equal markers.
import type { Principal } from '../../auth/principal';
import { toKafkaRecord, type DomainEvent } from '../../publication/event';
import { fixedClock } from '../../shared/clock';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessEvent, orderEvent } from '../../../test/support/projectionEvents';
import { createReadModels, type ReadModels } from '../read/readModels';
import type { ReadModelStore } from '../read/readModelStore';
import { createFreshnessService } from './freshnessService';
import { fromPublicationStores } from './pendingPublications';
import type { ProjectorStateSource } from './projectionProgress';
import { noDeadLetters } from './deadLetterScope';

const now = new Date();
// Caught up: one partition, everything on it applied, no dead letter, nothing expired.
const caughtUp: ProjectorStateSource = {
  logEnds: () => Promise.resolve([{ partition: 0, low: 0n, high: 5n }]),
  applied: () =>
    Promise.resolve({
      positions: new Map([[0, { partition: 0, nextOffset: 5n, sourceCommitMs: now.getTime() - 5000 }]]),
      expired: new Map(),
      deadLetters: noDeadLetters(),
    }),
  offsetsAt: () => Promise.resolve(new Map()),
  close: () => Promise.resolve(),
};
const teacher = (...schoolIds: number[]): Principal => ({ subject: 't', roles: ['teacher'], schoolIds });
const student = (userId: number): Principal => ({ subject: 's', roles: ['student'], userId });
const customer = (customerId: string): Principal => ({ subject: customerId, roles: ['customer'], customerId });
const operator: Principal = { subject: 'op', roles: ['operator'] };
const orderId = (n: number) => `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('freshness within the caller scope', () => {
  let env: TestEnv;
  let rm: ReadModels;

  beforeAll(async () => {
    env = await createTestEnv();
    rm = createReadModels({
      store: {} as ReadModelStore,
      database: env.settings.clickhouseDatabase,
      freshness: createFreshnessService({
        pending: fromPublicationStores({ shards: env.resources.mysql, pg: env.resources.pg }),
        progress: caughtUp,
        clock: fixedClock(now),
        cacheMs: 0,
        staleAfterMs: 60000,
      }),
      maxPageSize: 100,
      reportMinGroupSize: 5,
    });
    const c = { detectId: 40001, projectId: 1, grade: 5, result: '2.000' };
    // 1001: projected at school 11 earlier, its pending correction moves it to school 99 (student 501).
    await outboxRow(fitnessEvent({ ...c, dataId: 1001, userId: 501, schoolId: 99, version: 2 }));
    // 1101: pending at school 11 (student 502).
    await outboxRow(fitnessEvent({ ...c, dataId: 1101, userId: 502, schoolId: 11, version: 1 }));
    await fallbackRow(orderEvent({ orderId: orderId(2), customerId: 'c-2', createdAt: '2026-05-01T10:00:00.000Z' }));
  });
  afterAll(() => env?.cleanup());

  async function outboxRow(e: DomainEvent) {
    const r = toKafkaRecord(e);
    await env.resources.mysql
      .shard(e.shard)
      .db('outbox_events')
      .insert({
        ...{ event_id: e.eventId, domain: e.domain, aggregate_id: e.aggregateId, version: e.version, topic: 'x' },
        ...{ message_key: r.key, message_value: r.value, headers: JSON.stringify(r.headers), status: 'NEW' },
        created_at: new Date(now.getTime() - 1000),
      });
  }
  async function fallbackRow(e: DomainEvent) {
    const r = toKafkaRecord(e);
    await env.resources.pg('event_publications').insert({
      ...{ event_id: e.eventId, domain: e.domain, aggregate_id: e.aggregateId, version: e.version, topic: 'x' },
      ...{ message_key: r.key, message_value: r.value, headers: JSON.stringify(r.headers), status: 'NOT_PUBLISHED' },
      ...{ source: 'DIRECT_FALLBACK', direct_attempts: 3, relay_attempts: 0, replay_count: 0, next_attempt_at: new Date() },
    });
  }

  it("a scope's marker counts only pending publications the caller could read (the newest version's school)", async () => {
    const pending = async (p: Principal) =>
      (await rm.freshnessFor(p, 'read', { domain: 'fitness', dataEquals: { detectId: 40001 } })).pendingPublications;
    expect(await pending(teacher(11))).toBe(1);
    expect(await pending(teacher(99))).toBe(1);
    expect(await pending(teacher(12))).toBe(0);
    expect(await pending(student(501))).toBe(1);
    expect(await pending(teacher(11, 99))).toBe(2);
    expect(await pending(operator)).toBe(2);
    const orders = async (p: Principal) => (await rm.freshnessFor(p, 'read', { domain: 'orders' })).pendingPublications;
    expect([await orders(customer('c-1')), await orders(customer('c-2')), await orders(operator)]).toEqual([0, 1, 1]);
  });

  it('the marker of an aggregate outside the scope equals that of an id that does not exist', async () => {
    const [unknown] = await rm.aggregateFreshness(operator, 'fitness', ['999901']);
    expect(unknown).toMatchObject({ status: 'FRESH', pendingPublications: 0 });
    const [moved, stays] = await rm.aggregateFreshness(teacher(11), 'fitness', ['1001', '1101']);
    expect(moved).toEqual(unknown);
    expect(stays).toMatchObject({ status: 'CATCHING_UP', pendingPublications: 1 });
    expect((await rm.aggregateFreshness(student(502), 'fitness', ['1001']))[0]).toEqual(unknown);
    // Concurrent callers of different scopes never share a batch.
    const [a, b] = await Promise.all([
      rm.aggregateFreshness(teacher(11), 'fitness', ['1001']),
      rm.aggregateFreshness(teacher(99), 'fitness', ['1001']),
    ]);
    expect([a[0]!.status, b[0]!.status]).toEqual(['FRESH', 'CATCHING_UP']);
    const [theirs] = await rm.aggregateFreshness(customer('c-1'), 'orders', [orderId(2)]);
    const [none] = await rm.aggregateFreshness(customer('c-1'), 'orders', [orderId(9)]);
    expect(theirs).toEqual(none);
    expect((await rm.aggregateFreshness(customer('c-2'), 'orders', [orderId(2)]))[0]).toMatchObject({ status: 'CATCHING_UP' });
  });
});
