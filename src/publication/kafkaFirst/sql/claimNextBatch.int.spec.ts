// Relay claims on PostgreSQL and MariaDB: one claim winner under concurrency, expired claims become
// eligible and the old owner's completion is refused (claim lost, also through a whole relay pass),
// and eligibility, ordering and the batch limit applied in SQL with the database clock.
import type { Knex } from 'knex';
import { createRegistry } from '../../../metrics/registry';
import { kafkaFirstMetrics } from '../metrics';
import type { PublicationStore } from '../../stores';
import { waitFor } from '../../../shared/lifecycle';
import { insertFallback, metricValue, RELAY_ENGINES, sampleEvent, storeFor } from '../../../../test/support/kafkaFirst';
import { fromKafkaSink, relayOnce, tableOf, testRelayDeps, type EventSink } from '../../../../test/support/relayHarness';
import { createTestEnv, type TestEnv } from '../../../../test/support/testEnv';
import { claimNextBatch } from './claimNextBatch';
import { markPublished } from './markPublished';
import { refreshBacklogGauges } from '../publicationsTable';

let env: TestEnv;
let good: EventSink;

beforeAll(async () => {
  env = await createTestEnv();
  good = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
});
afterAll(async () => {
  await good?.close();
  await env?.cleanup();
});

describe.each(RELAY_ENGINES)('relay claims on %s', (engine, domain) => {
  let store: PublicationStore;
  let db: Knex;
  const registry = createRegistry(false);
  const metrics = kafkaFirstMetrics(registry);
  const row = (n: number) =>
    db('event_publications')
      .where({ event_id: sampleEvent(domain, n).eventId })
      .first();
  const claim = async (owner: string, limit: number, leaseMs = 30000) =>
    (await claimNextBatch(db, { owner, token: 't', leaseMs, limit })).records;

  beforeAll(() => {
    store = storeFor(env, engine, domain);
    db = store.db;
  });
  beforeEach(async () => {
    await db('event_publications').delete();
  });

  it('hands each row to exactly one of several concurrent claims', async () => {
    for (let n = 100; n < 160; n++) await insertFallback(env, db, domain, n);
    const claims = await Promise.all([1, 2, 3, 4].map((i) => claim(`relay-${i}`, 20)));
    // Whatever the interleaving, later claims take only what is left: every row exactly once.
    for (let i = 5; claims.flat().length < 60 && i < 20; i++) claims.push(await claim(`relay-${i}`, 20));
    const ids = claims.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(60);
    expect(await claim('late', 20)).toEqual([]);
    // The persisted owner of each row is the claim that returned it.
    const ownerOf = new Map(claims.flatMap((c, i) => c.map((x) => [x.id, i] as const)));
    const rows = (await db('event_publications').select('id', 'claim_owner')) as { id: number | string; claim_owner: string }[];
    for (const r of rows) expect(r.claim_owner).toBe(`relay-${ownerOf.get(Number(r.id))! + 1}:t`);
  });

  it('makes an expired claim eligible again and stops the old owner from completing it (claim lost)', async () => {
    await insertFallback(env, db, domain, 3);
    const [a] = await claim('relay-a', 10, 2000);
    expect(a).toBeDefined();
    expect(await claim('relay-b', 10)).toEqual([]);
    const [b] = await waitFor(
      async () => {
        const got = await claim('relay-b', 10);
        return got.length ? got : undefined;
      },
      { timeoutMs: 5000, intervalMs: 50, what: 'the expired claim' },
    );
    expect(b!.id).toBe(a!.id);
    expect(await markPublished(db, 'relay-a:t', [a!.id])).toBe(0);
    expect(await markPublished(db, 'relay-b:t', [b!.id])).toBe(1);

    // Through whole relay passes: the slow relay's lease runs out while it publishes, another relay
    // takes the row over and publishes it, and the slow one's completion is refused.
    await insertFallback(env, db, domain, 4);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: EventSink = {
      publish: async (records) => {
        await gate;
        return good.publish(records);
      },
      close: async () => undefined,
    };
    const pass = (sink: EventSink, over: Parameters<typeof testRelayDeps>[2]) =>
      relayOnce(tableOf(store, 'publications'), testRelayDeps(store, sink, over, 'publications', registry));
    const slowPass = pass(slow, { leaseMs: 200, owner: 'slow' });
    await waitFor(async () => (String((await row(4)).claim_owner ?? '').startsWith('slow:') ? true : undefined), {
      timeoutMs: 5000,
      intervalMs: 10,
      what: 'the slow claim',
    });
    await waitFor(async () => ((await pass(good, { owner: 'fast' })).sent === 1 ? true : undefined), {
      timeoutMs: 5000,
      intervalMs: 50,
      what: 'the takeover',
    });
    release();
    expect(await slowPass).toMatchObject({ claimed: 1, sent: 0, claimLost: 1 });
    expect(
      await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'claim_lost' }),
    ).toBeGreaterThanOrEqual(1);
    expect(await row(4)).toMatchObject({ status: 'PUBLISHED' });
  });

  it('applies eligibility, ordering and the batch limit in SQL', async () => {
    const ids: number[] = [];
    for (let n = 10; n < 20; n++) ids.push(await insertFallback(env, db, domain, n));
    const now = engine === 'postgres' ? 'CURRENT_TIMESTAMP(3)' : 'NOW(3)';
    const inAnHour = engine === 'postgres' ? `CURRENT_TIMESTAMP(3) + INTERVAL '1 hour'` : 'NOW(3) + INTERVAL 1 HOUR';
    const anHourAgo = engine === 'postgres' ? `CURRENT_TIMESTAMP(3) - INTERVAL '1 hour'` : 'NOW(3) - INTERVAL 1 HOUR';
    await db('event_publications').where({ id: ids[1] }).update({ status: 'PUBLISHED' });
    await db('event_publications').where({ id: ids[2] }).update({ status: 'DEAD_LETTER' });
    await db('event_publications')
      .where({ id: ids[3] })
      .update({ next_attempt_at: db.raw(inAnHour) });
    await db('event_publications')
      .where({ id: ids[4] })
      .update({ claim_owner: 'someone', claim_expires_at: db.raw(inAnHour) });
    await db('event_publications')
      .where({ id: ids[5] })
      .update({ claim_owner: 'crashed', claim_expires_at: db.raw(anHourAgo) });
    await db('event_publications')
      .where({ id: ids[6] })
      .update({ next_attempt_at: db.raw(now) });

    await refreshBacklogGauges(store, metrics);
    expect(await metricValue(registry, 'tidemark_kafka_first_expired_claims', { store: store.name, domain })).toBe(1);

    const first = await claim('o1', 3);
    expect(first.map((c) => c.id)).toEqual([ids[0], ids[5], ids[6]]);
    expect(first[0]).toMatchObject({
      eventId: sampleEvent(domain, 10).eventId,
      domain,
      attempts: 1,
      from: 'NOT_PUBLISHED',
      headers: { eventId: sampleEvent(domain, 10).eventId },
    });
    expect((await claim('o2', 100)).map((c) => c.id)).toEqual([ids[7], ids[8], ids[9]]);

    await refreshBacklogGauges(store, metrics);
    expect(await metricValue(registry, 'tidemark_kafka_first_not_published_rows', { store: store.name, domain })).toBe(8);
    expect(await metricValue(registry, 'tidemark_kafka_first_dead_letter_rows', { store: store.name, domain })).toBe(1);
    expect(await metricValue(registry, 'tidemark_kafka_first_expired_claims', { store: store.name, domain })).toBe(0);
    expect(
      await metricValue(registry, 'tidemark_kafka_first_oldest_not_published_age_seconds', { store: store.name, domain }),
    ).toBeGreaterThanOrEqual(0);
  });
});
