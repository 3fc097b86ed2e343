// The operator lists over GraphQL, page by page: every list that takes `first` also takes `after`
// (the cursor of the last item of the previous page) and pages through without gaps or repeats:
// discrepancies, repairs, projection rebuilds, reconciliation runs (newest first), parked outbox
// events across stores, and the projector's dead letters, which an operator can also replay. A
// tampered cursor is a VALIDATION_FAILED error; a client token sees none of it.
import type { Producer } from 'kafkajs';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { waitFor } from '../../src/shared/lifecycle';
import {
  DiscrepanciesPageDocument,
  ParkedEventsPageDocument,
  ProjectionRebuildsPageDocument,
  ProjectorDeadLettersDocument,
  ReconcileDocument,
  ReconciliationHealthDocument,
  ReconciliationRunsDocument,
  RebuildProjectionDocument,
  RepairDocument,
  RepairsPageDocument,
  ReplayProjectorDeadLettersDocument,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { seedOutbox } from '../support/outboxSeed';
import { fitnessStates, seedProjection, seedSource } from '../support/reconciliationSeed';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(120000);

/** Every page of a list, following `after` until a page comes back short. */
async function allPages<T extends { cursor: string }>(fetch: (after: string | undefined) => Promise<T[]>, first: number): Promise<T[][]> {
  const pages: T[][] = [];
  let after: string | undefined;
  for (;;) {
    const page = await fetch(after);
    pages.push(page);
    if (page.length < first) return pages;
    after = page[page.length - 1]!.cursor;
  }
}

describe('operator lists, page by page', () => {
  let env: TestEnv;
  let app: Tidemark;
  let producer: Producer;
  let url: string;
  let operator: Record<string, string>;
  const campaign = { detectId: 45001 };

  beforeAll(async () => {
    env = await createTestEnv({ repairWaitMs: 30000, rebuildWaitMs: 60000, reconcileDirectCompareMax: 4, reconcileBucketCount: 8 });
    const states = fitnessStates(
      { detectId: campaign.detectId, count: 6, firstSequence: 1, updatedAt: new Date(Date.now() - 3600_000) },
      2,
    );
    await seedSource(env.resources, states);
    await seedProjection(env.resources, states.slice(3));
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    operator = await authHeader(env.settings, 'operator');
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    await app?.stop();
    await env?.cleanup();
  });

  it('pages through discrepancies and repairs, newest first', async () => {
    const found = await execute(url, ReconcileDocument, { scope: { campaign }, level: 'CONTENT' }, operator);
    expect(found.data!.reconcile.discrepancies).toHaveLength(3);
    const pages = await allPages(
      async (after) => (await execute(url, DiscrepanciesPageDocument, { first: 2, after }, operator)).data!.discrepancies,
      2,
    );
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    const ids = pages.flat().map((d) => Number(d.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(3);

    // The repair waits for its verification (the projector applies the replays), so nothing stays unresolved.
    const repaired = await execute(url, RepairDocument, { ids: ids.map(String) }, operator);
    expect(repaired.errors).toBeUndefined();
    expect(repaired.data!.repair.map((r) => r.verification)).toEqual(['PASSED', 'PASSED', 'PASSED']);
    const repairs = await allPages(
      async (after) => (await execute(url, RepairsPageDocument, { first: 2, after }, operator)).data!.repairs,
      2,
    );
    expect(repairs.flat().map((r) => r.action)).toEqual(['REPLAY', 'REPLAY', 'REPLAY']);
    expect(new Set(repairs.flat().map((r) => r.aggregateId)).size).toBe(3);
  });

  it('lists reconciliation runs with outcome, level, counts and note, newest first, and pages through rebuilds', async () => {
    await waitFor(
      async () =>
        (await execute(url, ReconcileDocument, { scope: { campaign }, level: 'CONTENT' }, operator)).data!.reconcile.run.outcome ===
        'CLEAN',
      { timeoutMs: 30000, what: 'the replays applied' },
    );
    for (let i = 0; i < 2; i++) {
      const rb = await execute(
        url,
        RebuildProjectionDocument,
        { domain: 'fitness', scope: { campaign }, reason: `page test ${i}` },
        operator,
      );
      expect(rb.data!.rebuildProjection.status).toBe('VERIFIED');
    }
    const rebuilds = await allPages(
      async (after) => (await execute(url, ProjectionRebuildsPageDocument, { first: 1, after }, operator)).data!.projectionRebuilds,
      1,
    );
    expect(rebuilds.flat()).toHaveLength(2);
    expect(Number(rebuilds[0]![0]!.id)).toBeGreaterThan(Number(rebuilds[1]![0]!.id));

    const runs = await allPages(
      async (after) =>
        (
          await execute(
            url,
            ReconciliationRunsDocument,
            { filter: { triggers: ['OPERATOR'], domain: 'fitness' }, first: 1, after },
            operator,
          )
        ).data!.reconciliationRuns,
      1,
    );
    const operatorRuns = runs.flat();
    expect(operatorRuns.length).toBeGreaterThanOrEqual(2);
    expect(operatorRuns[0]).toMatchObject({
      scopeKey: 'fitness:detect=45001',
      trigger: 'OPERATOR',
      outcome: 'CLEAN',
      levelRequested: 'CONTENT',
      levelReached: 'CONTENT',
      note: expect.any(String),
    });
    expect(operatorRuns[operatorRuns.length - 1]).toMatchObject({
      outcome: 'DISCREPANCIES',
      discrepanciesFound: 3,
      counts: ['1', '2', '3'].map((segment) => ({ segment, source: 2, target: 1 })),
    });
    const verification = await execute(url, ReconciliationRunsDocument, { filter: { triggers: ['VERIFICATION'] }, first: 10 }, operator);
    expect(verification.data!.reconciliationRuns.length).toBeGreaterThanOrEqual(2);
    const health = await execute(url, ReconciliationHealthDocument, { domain: 'fitness' }, operator);
    expect(health.data!.publicationHealth[0]).toMatchObject({
      domain: 'fitness',
      unresolvedDiscrepancies: 0,
      scopesNeverVerified: 0,
      oldestVerificationAgeSeconds: expect.any(Number),
    });
  });

  it('pages through parked events across stores', async () => {
    const topic = env.resources.topics.events.fitness;
    const [s0, s1] = env.resources.mysql.shards;
    await seedOutbox(s0!.db, topic, 3, { shard: 0, firstSequence: 9000 });
    await seedOutbox(s1!.db, topic, 2, { shard: 1, firstSequence: 9100 });
    for (const s of [s0!, s1!])
      await s.db('outbox_events').update({ status: 'PARKED', parked_at: new Date(), last_error_code: 'KAFKA_UNAVAILABLE' });
    const whole = (await execute(url, ParkedEventsPageDocument, { first: 50 }, operator)).data!.parkedEvents;
    expect(whole.map((e) => e.shard)).toEqual([0, 0, 0, 1, 1]);
    const pages = await allPages(
      async (after) => (await execute(url, ParkedEventsPageDocument, { first: 2, after }, operator)).data!.parkedEvents,
      2,
    );
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((e) => e.eventId)).toEqual(whole.map((e) => e.eventId));
  });

  it('lists the projector dead letters page by page and replays chosen ones through the current mapping', async () => {
    await producer.send({
      topic: env.resources.topics.events.fitness,
      acks: -1,
      messages: [
        { key: 'a', value: '{not json' },
        { key: 'b', value: '[]' },
        { key: 'c', value: '{"eventId":"e-1","aggregateId":"77"}' },
      ],
    });
    const listed = await waitFor(
      async () => {
        const r = await execute(url, ProjectorDeadLettersDocument, { first: 50 }, operator);
        return r.data?.projectorDeadLetters.length === 3 ? r.data.projectorDeadLetters : undefined;
      },
      { timeoutMs: 30000, what: 'three dead letters' },
    );
    expect(listed.map((d) => d.reason).sort()).toEqual(['INVALID_ENVELOPE', 'INVALID_ENVELOPE', 'MALFORMED_JSON']);
    expect(listed.find((d) => d.eventId === 'e-1')).toMatchObject({
      aggregateId: '77',
      domain: 'fitness',
      status: 'DEAD',
      replays: 0,
      topic: env.resources.topics.events.fitness,
    });
    expect(JSON.stringify(listed)).not.toContain('not json');
    const pages = await allPages(
      async (after) => (await execute(url, ProjectorDeadLettersDocument, { first: 2, after }, operator)).data!.projectorDeadLetters,
      2,
    );
    expect(pages.flat().map((d) => d.id)).toEqual(listed.map((d) => d.id));

    const replay = await execute(url, ReplayProjectorDeadLettersDocument, { ids: [listed[0]!.id] }, operator);
    expect(replay.data!.replayProjectorDeadLetters).toEqual({
      projected: 0,
      rejectedAgain: 1,
      deadLetters: [
        {
          id: listed[0]!.id,
          outcome: 'REJECTED_AGAIN',
          reason: listed[0]!.reason,
          status: 'DEAD',
          replays: 1,
          lastReplayedBy: 'test-operator',
        },
      ],
    });
    const bad = await execute(url, ReplayProjectorDeadLettersDocument, { ids: ['not-an-id'] }, operator);
    expect(bad.errors![0]!.extensions!.code).toBe('VALIDATION_FAILED');
    const both = await execute(url, ReplayProjectorDeadLettersDocument, { ids: [listed[0]!.id], filter: {} }, operator);
    expect(both.errors![0]!.extensions!.code).toBe('VALIDATION_FAILED');
  });

  it('refuses a tampered cursor and a client token', async () => {
    for (const doc of [
      DiscrepanciesPageDocument,
      RepairsPageDocument,
      ReconciliationRunsDocument,
      ParkedEventsPageDocument,
      ProjectorDeadLettersDocument,
    ] as const) {
      const r = await execute(url, doc as typeof DiscrepanciesPageDocument, { first: 1, after: 'eyJ4IjoxfQ' }, operator);
      expect(r.errors![0]!.extensions!.code).toBe('VALIDATION_FAILED');
    }
    const client = await authHeader(env.settings, 'service');
    expect((await execute(url, ProjectorDeadLettersDocument, { first: 1 }, client)).errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await execute(url, ReconciliationRunsDocument, { first: 1 }, client)).errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});
