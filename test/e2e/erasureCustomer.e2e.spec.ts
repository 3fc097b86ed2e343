// Erasing a customer on the real stack (docs/erasure.md, mode 'pseudonymise'). Customer C places three
// orders (one as itself, its id as the placing subject; one whose publication is also a DEAD_LETTER
// fallback row); customer D places one. eraseCustomer(C) runs to COMPLETED with a certificate of
// postgres, kafka, clickhouse and reconciliation-ledger, each found 0; an independent search (raw SQL
// over every PostgreSQL and ClickHouse table, every topic from the earliest offset) finds C's id under
// no customer-id key; C's orders are still there with their amounts and the pseudonym as customer; the
// orders report totals are unchanged; D is untouched; a late event of C, a rebuild and a reconciliation of
// the window bring C's id back nowhere; C placing a new order afterwards keeps C's id.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { pseudonymOf } from '../../src/domains/contract/erasure';
import { orderPlacedEvent } from '../../src/domains/orders/events';
import { ORDER_COLUMNS, orderFromRow, type OrderRow } from '../../src/domains/orders/orderRow';
import { publicationRowFor } from '../../src/publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../src/publication/kafkaFirst/upsertNotPublished';
import { projectorGroupId } from '../../src/projections/projectorGroup';
import { waitFor } from '../../src/shared/lifecycle';
import {
  EraseCustomerDocument,
  ErasureDocument,
  OrderByIdDocument,
  OrderReportByDocument,
  PlaceOrderDocument,
  ProjectionRebuildsDocument,
  RebuildProjectionDocument,
  ReconcileDocument,
  type ErasureQuery,
} from '../generated/graphql';
import { readTopic } from '../support/readTopic';
import { scanClickHouse, scanKafka, scanPostgres, type CustomerTraces } from '../support/erasureScan';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(400000);

const C = 'cust-erase-c';
const D = 'cust-erase-d';
type Erasure = NonNullable<ErasureQuery['erasure']>;

describe('erasing a customer', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;
  const orders: Record<string, { id: string; total: string }> = {};
  const window = { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() };
  let reportBefore = '';
  let pseudonym = '';
  /** An event of C as it was on the topic before the erasure (sent again later, as a relay in flight would). */
  let lateEvent = '';

  beforeAll(async () => {
    env = await createTestEnv({
      relayPollIntervalMs: 50,
      projectorFlushIntervalMs: 50,
      erasurePollMs: 200,
      erasureRetryMs: 1000,
      erasureGuardRefreshMs: 300,
      reportMinGroupSize: 1,
    });
    app = await startTidemark(env.settings, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
  }, 120000);
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const traces = (): CustomerTraces => ({ customerId: C });

  async function place(name: string, customerId: string, unitPrice: string, headers = client): Promise<void> {
    const input = { customerId, currency: 'EUR', idempotencyKey: `erase-${name}`, items: [{ sku: 'SKU-1', quantity: 2, unitPrice }] };
    const r = await execute(url, PlaceOrderDocument, { input }, headers);
    expect(r.errors).toBeUndefined();
    orders[name] = { id: r.data!.placeOrder.order.orderId, total: r.data!.placeOrder.order.total };
  }

  async function projected(name: string) {
    return waitFor(
      async () => (await execute(url, OrderByIdDocument, { orderId: orders[name]!.id }, operator)).data?.order.order ?? undefined,
      {
        timeoutMs: 60000,
        what: `order ${name} projected`,
      },
    );
  }

  async function report(): Promise<string> {
    const r = await execute(url, OrderReportByDocument, { ...window, groupBy: 'CURRENCY' }, operator);
    expect(r.errors).toBeUndefined();
    return JSON.stringify(r.data!.orderReport.groups);
  }

  async function erasureOf(id: string): Promise<Erasure> {
    const r = await execute(url, ErasureDocument, { id }, operator);
    expect(r.errors).toBeUndefined();
    return r.data!.erasure!;
  }

  it('seeds two customers, one order of C also dead-lettered as a fallback row', async () => {
    await place('c1', C, '10.25');
    await place('c2', C, '20.5', await authHeaderFor(env.settings, { subject: C, roles: ['customer'], customerId: C }));
    await place('c3', C, '30');
    await place('d1', D, '40');
    for (const name of ['c1', 'c2', 'c3', 'd1']) await projected(name);
    const pg = app.resources.pg;
    const row = (await pg('orders').where({ order_id: orders.c3!.id }).first(ORDER_COLUMNS)) as OrderRow;
    await upsertNotPublished(pg, publicationRowFor(orderPlacedEvent(orderFromRow(row), 1), app.resources.topics, 'DIRECT_FALLBACK'));
    await pg('event_publications').where({ aggregate_id: orders.c3!.id }).update({ status: 'DEAD_LETTER' });
    const seen = await readTopic(app.resources.kafka, app.resources.topics.events.orders!, (ms) => ms.some((m) => m.key === orders.c1!.id));
    lateEvent = JSON.stringify(seen.find((m) => m.key === orders.c1!.id)!.envelope);
    reportBefore = await report();
    expect(reportBefore).toContain('"orderCount":4');
    // The search below is not vacuous: before the erasure it finds C in every store.
    expect((await scanPostgres(pg, traces())).length).toBeGreaterThan(0);
    expect((await scanClickHouse(app.resources.clickhouse, env.settings.clickhouseDatabase, traces())).length).toBeGreaterThan(0);
    expect((await scanKafka(app.resources.kafka, env.settings.kafkaTopicPrefix, traces())).length).toBeGreaterThan(0);
  });

  it('pseudonymises the customer in every store and certifies it', async () => {
    const started = Date.now();
    const r = await execute(url, EraseCustomerDocument, { customerId: C, reason: 'customer asked (GDPR art. 17)' }, operator);
    expect(r.errors).toBeUndefined();
    const erasure = r.data!.eraseCustomer;
    expect(erasure).toMatchObject({ kind: 'customer', domain: 'orders', aggregates: 3 });
    const done = await waitFor(
      async () => {
        const e = await erasureOf(erasure.id);
        return e.status === 'COMPLETED' ? e : undefined;
      },
      { timeoutMs: 300000, intervalMs: 500, what: 'the erasure completed' },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(done.certificate!.map((c) => c.store).sort()).toEqual(['clickhouse', 'kafka', 'postgres', 'reconciliation-ledger']);
    for (const c of done.certificate!) expect({ store: c.store, found: c.found }).toEqual({ store: c.store, found: 0 });
    expect(JSON.stringify(done)).not.toContain(C);
    pseudonym = pseudonymOf({ subjectHash: done.subjectHash });
    process.stdout.write(`customer erasure of 3 orders completed in ${seconds.toFixed(1)} s\n`);
  });

  it('leaves no customer id in any table or topic; the orders and their totals stay, under the pseudonym', async () => {
    expect(await scanPostgres(app.resources.pg, traces())).toEqual([]);
    expect(await scanClickHouse(app.resources.clickhouse, env.settings.clickhouseDatabase, traces())).toEqual([]);
    expect(await scanKafka(app.resources.kafka, env.settings.kafkaTopicPrefix, traces())).toEqual([]);
    for (const name of ['c1', 'c2', 'c3']) {
      const o = await projected(name);
      expect(o).toMatchObject({ orderId: orders[name]!.id, customerId: pseudonym, total: orders[name]!.total });
    }
    expect(await projected('d1')).toMatchObject({ customerId: D, total: orders.d1!.total });
    expect(await report()).toBe(reportBefore);
  });

  it("brings the customer's id back nowhere: a late event, a rebuild and a reconciliation of the window", async () => {
    const producer = app.resources.kafka.producer();
    await producer.connect();
    const topic = app.resources.topics.events.orders!;
    const [sent] = await producer.send({ topic, acks: -1, messages: [{ key: orders.c1!.id, value: lateEvent }] });
    await producer.disconnect();
    const admin = app.resources.kafka.admin();
    await admin.connect();
    try {
      await waitFor(
        async () => {
          const [t] = await admin.fetchOffsets({ groupId: projectorGroupId(env.settings), topics: [topic] });
          const p = t!.partitions.find((x) => x.partition === sent!.partition);
          return p !== undefined && Number(p.offset) > Number(sent!.baseOffset);
        },
        { timeoutMs: 30000, what: 'the projector past the late event' },
      );
    } finally {
      await admin.disconnect();
    }
    const scope = { orderWindow: window };
    const rebuild = await execute(url, RebuildProjectionDocument, { domain: 'orders', scope, reason: 'after erasure' }, operator);
    expect(rebuild.errors).toBeUndefined();
    await waitFor(
      async () =>
        (await execute(url, ProjectionRebuildsDocument, { first: 1 }, operator)).data!.projectionRebuilds[0]?.status === 'VERIFIED',
      {
        timeoutMs: 90000,
        what: 'the rebuild verified',
      },
    );
    const rec = await execute(url, ReconcileDocument, { scope, level: 'CONTENT' }, operator);
    expect(rec.errors).toBeUndefined();
    expect(rec.data!.reconcile.run.outcome).toBe('CLEAN');
    expect(await scanClickHouse(app.resources.clickhouse, env.settings.clickhouseDatabase, traces())).toEqual([]);
    expect(await projected('c1')).toMatchObject({ customerId: pseudonym, total: orders.c1!.total });
    expect(await report()).toBe(reportBefore);
  });

  it('lets the customer place a new order afterwards, under its own id', async () => {
    await place('back', C, '5');
    expect(await projected('back')).toMatchObject({ customerId: C, total: orders.back!.total });
    expect(await report()).toContain('"orderCount":5');
  });

  it('refuses hostile or careless requests with a typed error, naming no customer', async () => {
    const cases: [Record<string, string>, { customerId: string; reason: string }, string][] = [
      [client, { customerId: 'cust-hostile', reason: 'not an operator' }, 'FORBIDDEN'],
      [{}, { customerId: 'cust-hostile', reason: 'anonymous' }, 'UNAUTHENTICATED'],
      [operator, { customerId: '', reason: 'empty' }, 'VALIDATION_FAILED'],
      [operator, { customerId: '   ', reason: 'blank' }, 'VALIDATION_FAILED'],
      [operator, { customerId: 'cust-hostile'.repeat(6), reason: 'too long' }, 'VALIDATION_FAILED'],
      [operator, { customerId: 'cust\u0000hostile', reason: 'control character' }, 'VALIDATION_FAILED'],
      [operator, { customerId: 'cust-hostile', reason: '' }, 'VALIDATION_FAILED'],
    ];
    for (const [headers, vars, code] of cases) {
      const r = await execute(url, EraseCustomerDocument, vars, headers);
      expect({ vars, code: r.errors?.[0]?.extensions?.code }).toEqual({ vars, code });
      expect(r.errors![0]!.message).not.toMatch(/select|update|stack|hostile/i);
    }
  });
});
