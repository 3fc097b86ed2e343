// Orders and the kafka-first operator view over GraphQL/HTTP against startTidemark on the real stack:
// placeOrder returns its publication outcome; typed validation errors write nothing; the operator
// `publications` view pages through rows and never shows the payload or raw exception text (tested
// with a secret in both); a record the real broker refuses is dead-lettered by the app's own relay
// role and `replayDeadLetters` brings it back; operator operations refuse other roles; /metrics shows
// the kafka-first series.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { toKafkaRecord, type DomainEvent } from '../../src/publication/event';
import { publicationRowFor } from '../../src/publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../src/publication/kafkaFirst/upsertNotPublished';
import { randomIds } from '../../src/shared/clock';
import { waitFor } from '../../src/shared/lifecycle';
import { KafkaFirstPublicationsDocument, PlaceOrderDocument, ReplayDeadLettersDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

const SECRET_PAYLOAD = 'SECRET-CUSTOMER-7f3a';
const SECRET_ERROR = 'hunter2-secret-pw';

describe('orders and kafka-first publications over GraphQL', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark({ ...env.settings, roles: ['gateway'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const input = (key: string, over: Record<string, unknown> = {}) => ({
    customerId: 'cust-e2e',
    currency: 'EUR',
    idempotencyKey: key,
    items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }],
    ...over,
  });

  it('places an order and reports PUBLISHED_DIRECT with exact decimals; a retry is ALREADY_PLACED', async () => {
    const r = await execute(url, PlaceOrderDocument, { input: input('e2e-1') }, client);
    expect(r.errors).toBeUndefined();
    const p = r.data!.placeOrder;
    expect(p).toMatchObject({
      outcome: 'PUBLISHED_DIRECT',
      replayed: false,
      publication: { state: 'PUBLISHED_DIRECT' },
      order: { total: '39.8000', itemCount: 2, items: [{ unitPrice: '19.9000' }] },
    });
    expect(p.eventId).toBe(`order-placed:${p.order.orderId}:v1`);
    const again = await execute(url, PlaceOrderDocument, { input: input('e2e-1') }, client);
    expect(again.data!.placeOrder).toMatchObject({
      outcome: 'ALREADY_PLACED',
      replayed: true,
      publication: null,
      order: { orderId: p.order.orderId },
    });
  });

  it('answers invalid input with VALIDATION_FAILED naming field and reason, and writes nothing', async () => {
    const before = Number((await env.resources.pg('orders').count({ n: '*' }))[0]!.n);
    const r = await execute(
      url,
      PlaceOrderDocument,
      { input: input('e2e-bad', { items: [{ sku: 'A', quantity: 1, unitPrice: '-5' }] }) },
      client,
    );
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'items[0].unitPrice', reason: 'NEGATIVE_PRICE' },
    });
    const empty = await execute(url, PlaceOrderDocument, { input: input('e2e-empty', { items: [] }) }, client);
    expect(empty.errors![0]!.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'items', reason: 'EMPTY_ITEMS' } });
    expect(Number((await env.resources.pg('orders').count({ n: '*' }))[0]!.n)).toBe(before);
  });

  it('requires a token to place orders and the operator role for the publication view', async () => {
    const anon = await execute(url, PlaceOrderDocument, { input: input('e2e-anon') });
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const asClient = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders' }, client);
    expect(asClient.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const replayAsClient = await execute(url, ReplayDeadLettersDocument, { filter: { domain: 'orders' } }, client);
    expect(replayAsClient.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });

  it('shows operators attempts, state and a safe error summary, never the payload or raw exception text; replays dead letters', async () => {
    const db = env.resources.pg;
    const orderId = randomIds.uuid();
    // A record the broker refuses (larger than max.message.bytes) that carries a secret in its payload.
    const event: DomainEvent = {
      eventId: `order-placed:${orderId}:v1`,
      domain: 'orders',
      type: 'OrderPlaced',
      aggregateId: orderId,
      version: 1,
      schemaVersion: 1,
      isDeleted: false,
      occurredAt: new Date(),
      shard: 0,
      data: {
        orderId,
        customerId: SECRET_PAYLOAD,
        note: 'x'.repeat(1_200_000),
        currency: 'EUR',
        items: [],
        total: '0.0000',
        itemCount: 0,
        createdAt: new Date().toISOString(),
      },
    };
    await upsertNotPublished(db, publicationRowFor(event, env.resources.topics, 'DIRECT_FALLBACK', { attempts: 3, result: 'timeout' }));
    expect((await db('event_publications').where({ event_id: event.eventId }).first()).message_value).toBe(toKafkaRecord(event).value);

    // The app's own relay role, with the production attempt limit, against the real broker.
    const relay = await startTidemark(
      {
        ...env.settings,
        roles: ['relay'],
        kafkaFirstRelayMaxAttempts: 3,
        relayBackoffBaseMs: 10,
        relayBackoffMaxMs: 20,
        kafkaFirstRelayPollIntervalMs: 20,
      },
      { migrate: false },
    );
    try {
      await waitFor(async () => (await db('event_publications').where({ event_id: event.eventId }).first()).status === 'DEAD_LETTER', {
        timeoutMs: 30000,
        what: 'the dead letter',
      });
    } finally {
      await relay.stop();
    }
    // Even a row written by something that skipped redaction is re-redacted on the way out.
    const other = { ...event, eventId: `order-placed:${randomIds.uuid()}:v1` };
    await upsertNotPublished(db, publicationRowFor(other, env.resources.topics, 'RECONCILER'));
    await db('event_publications')
      .where({ event_id: other.eventId })
      .update({ last_error_code: 'X', last_error_summary: `token=${SECRET_ERROR} {"customerId":"${SECRET_PAYLOAD}"}` });

    const r = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders', first: 50 }, operator);
    expect(r.errors).toBeUndefined();
    const text = JSON.stringify(r);
    expect(text).not.toContain(SECRET_PAYLOAD);
    expect(text).not.toContain(SECRET_ERROR);
    const dead = r.data!.publications.nodes.find((n) => n.eventId === event.eventId)!;
    expect(dead).toMatchObject({
      status: 'DEAD_LETTER',
      relayAttempts: 3,
      directAttempts: 3,
      directResult: 'timeout',
      source: 'DIRECT_FALLBACK',
      aggregateId: orderId,
      lastErrorCode: 'MESSAGE_TOO_LARGE',
    });
    expect(dead.lastErrorSummary).toMatch(/larger than the max message size/);
    const leaked = r.data!.publications.nodes.find((n) => n.eventId === other.eventId)!;
    expect(leaked.lastErrorSummary).toContain('[redacted]');

    const onlyDead = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders', status: 'DEAD_LETTER' }, operator);
    expect(onlyDead.data!.publications.nodes.map((n) => n.eventId)).toEqual([event.eventId]);

    const replay = await execute(url, ReplayDeadLettersDocument, { filter: { domain: 'orders', eventIds: [event.eventId] } }, operator);
    expect(replay.data!.replayDeadLetters).toEqual({ replayedCount: 1, eventIds: [event.eventId] });
    const after = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders', status: 'NOT_PUBLISHED' }, operator);
    expect(after.data!.publications.nodes.find((n) => n.eventId === event.eventId)).toMatchObject({ relayAttempts: 0, replayCount: 1 });
  });

  it('pages through publications with a cursor, oldest first', async () => {
    const r1 = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders', first: 1 }, operator);
    const page1 = r1.data!.publications;
    expect(page1.nodes).toHaveLength(1);
    expect(page1.hasNextPage).toBe(true);
    const r2 = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders', first: 50, after: page1.endCursor }, operator);
    const all = [...page1.nodes, ...r2.data!.publications.nodes];
    expect(new Set(all.map((n) => n.eventId)).size).toBe(all.length);
    expect(all.map((n) => n.createdAt)).toEqual([...all.map((n) => n.createdAt)].sort());
    const bad = await execute(url, KafkaFirstPublicationsDocument, { domain: 'orders', after: 'garbage' }, operator);
    expect(bad.errors![0]!.extensions!.code).toBe('VALIDATION_FAILED');
  });

  it('exposes the kafka-first metrics', async () => {
    const text = await (await fetch(url.replace(/\/graphql$/, '/metrics'))).text();
    expect(text).toContain('tidemark_kafka_first_direct_attempts_total{domain="orders",result="success"}');
    expect(text).toContain('tidemark_kafka_first_publish_outcomes_total{domain="orders",outcome="published_direct"}');
  });
});
