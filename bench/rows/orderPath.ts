// Row 2, order path: GraphQL `placeOrder` against the gateway child (kafka-first: one order INSERT in
// its transaction, then a direct acks=all Kafka send after commit) at a fixed concurrency, versus raw
// `pg` inserting the same order row plus one kafkajs send of the same OrderPlaced record, at the same
// concurrency, over a pool of the same size. Rounds alternate ours/raw. The row also proves the
// normal path's database cost: exactly one row written per order (PostgreSQL's own tuple counters
// over every table of the orders database, and no publication or outbox rows).
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { toKafkaRecord } from '../../src/publication/event';
import { waitFor } from '../../src/shared/lifecycle';
import { orderEvent } from '../../test/support/projectionEvents';
import { benchEnv } from '../lib/benchEnv';
import { startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import { GraphQLResponseError } from '../lib/graphqlHttp';
import { createTopic } from '../lib/kafkaUtil';
import { SideBySideCpu, withCpu } from '../lib/cpuTime';
import { closedLoop, type LoadReport } from '../lib/load';
import { notBuilt, type BenchRow, type RowResult } from '../lib/row';
import { perSecond, round, summarize, throughputRatio } from '../lib/stats';
import { merge } from './writePath';

const NAME = 'order path: placeOrder (kafka-first)';
const UNIT = 'orders/s';
const TARGET = 'ratio >= 0.6; 1 DB write/order';

const PLACE_ORDER = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { eventId outcome } }`;

function orderInput(n: number, run: string) {
  return {
    customerId: `customer-${n % 1000}`,
    currency: 'EUR',
    idempotencyKey: `bench-${run}-${n}`,
    items: [{ sku: `SKU-${n % 50}`, quantity: 2, unitPrice: '19.90' }],
  };
}

// Written by the gateway's start-up migration check, before the first order; PostgreSQL may report a
// backend's counters up to ~10 s late, so they are left out of the per-order count by name.
const STARTUP_TABLES = ['knex_migrations', 'knex_migrations_lock', 'store_identity'];

/** Rows inserted, updated or deleted in every table of our (public) schema, by PostgreSQL's counters. */
async function tupleWrites(db: pg.Pool): Promise<number> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const r = await db.query<{ n: string }>(
    "SELECT COALESCE(SUM(n_tup_ins + n_tup_upd + n_tup_del), 0) AS n FROM pg_stat_user_tables WHERE schemaname = 'public' AND relname <> ALL($1)",
    [STARTUP_TABLES],
  );
  return Number(r.rows[0]!.n);
}

async function writesByTable(db: pg.Pool): Promise<Record<string, number>> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const r = await db.query<{ t: string; n: string }>(
    "SELECT relname AS t, n_tup_ins + n_tup_upd + n_tup_del AS n FROM pg_stat_user_tables WHERE schemaname = 'public'",
  );
  return Object.fromEntries(r.rows.map((x) => [x.t, Number(x.n)]));
}

async function countRows(db: pg.Pool, table: string): Promise<number> {
  return Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
}

export const orderPathRow: BenchRow = {
  id: 2,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const concurrency = 32;
    const roundMs = ctx.quick ? 4_000 : 15_000;
    const rounds = 2;
    const env = await benchEnv();
    const s = env.settings;
    const pool = new pg.Pool({
      host: s.pgHost,
      port: s.pgPort,
      user: s.pgUser,
      password: s.pgPassword,
      database: s.pgDatabase,
      max: s.dbPoolMax,
      options: '-c TimeZone=UTC',
    });
    // The raw side writes an identical table in its own schema, so the write count of ours (public
    // schema) stays exact.
    await pool.query('CREATE SCHEMA bench_raw');
    await pool.query('CREATE TABLE bench_raw.orders (LIKE public.orders INCLUDING ALL)');
    const producer = env.resources.kafka.producer({ allowAutoTopicCreation: false });
    let gw: GatewayUnderTest | undefined;
    try {
      gw = await startGatewayUnderTest(s, { cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row2` : undefined });
      if (!(await gw.operations()).mutation.has('placeOrder'))
        return notBuilt(2, NAME, UNIT, TARGET, 'the gateway schema has no placeOrder mutation');
      const client = await gw.client('service', concurrency);
      const run = randomUUID().slice(0, 8);
      // Counters settle within a second of the last migration write; take the baseline after that.
      let writesBefore = await tupleWrites(pool);
      await waitFor(
        async () => {
          const w = await tupleWrites(pool);
          const stable = w === writesBefore;
          writesBefore = w;
          return stable;
        },
        { timeoutMs: 10000, intervalMs: 1200, what: 'pg_stat_user_tables to settle' },
      );
      const tablesBefore = await writesByTable(pool);
      let n = 0;
      const outcomes: Record<string, number> = {};
      const place = async () => {
        const d = await client.request<{ placeOrder: { outcome: string } }>(PLACE_ORDER, { input: orderInput(n++, run) });
        outcomes[d.placeOrder.outcome] = (outcomes[d.placeOrder.outcome] ?? 0) + 1;
      };
      try {
        await place();
      } catch (err) {
        if (err instanceof GraphQLResponseError && err.codes.includes('STORE_UNAVAILABLE'))
          return notBuilt(2, NAME, UNIT, TARGET, 'placeOrder is in the schema but the orders service is not wired into the gateway');
        throw err;
      }
      const rawTopic = `${s.kafkaTopicPrefix}.bench-raw-orders`;
      await createTopic(env.resources.kafka, rawTopic, s.kafkaPartitions);
      await producer.connect();
      let k = 0;
      const raw = async () => {
        const i = k++;
        const orderId = randomUUID();
        const input = orderInput(i, `raw-${run}`);
        const createdAt = new Date();
        const items = [{ sku: input.items[0]!.sku, quantity: 2, unitPrice: '19.9000' }];
        await pool.query(
          'INSERT INTO bench_raw.orders (order_id, customer_id, currency, items, total, item_count, idempotency_key, request_hash, created_at) VALUES ($1, $2, $3, $4::jsonb, $5::numeric, $6, $7, $8, $9)',
          [
            orderId,
            input.customerId,
            input.currency,
            JSON.stringify(items),
            '39.8000',
            2,
            input.idempotencyKey,
            createHash('sha256').update(input.idempotencyKey).digest('hex'),
            createdAt,
          ],
        );
        const record = toKafkaRecord(
          orderEvent({ orderId, customerId: input.customerId, items, total: '39.8000', createdAt: createdAt.toISOString() }),
        );
        await producer.send({ topic: rawTopic, acks: -1, messages: [record] });
      };
      await closedLoop({ concurrency, durationMs: 1500, op: place });
      const ourRounds: LoadReport[] = [];
      const rawRounds: LoadReport[] = [];
      // CPU spent per operation: the gateway child for ours, this process for the raw client side.
      const cpu = new SideBySideCpu();
      for (let r = 0; r < rounds; r++) {
        ctx.log(`row 2: round ${r + 1}/${rounds} raw`);
        const rr = await withCpu(process.pid, () => closedLoop({ concurrency, durationMs: roundMs, op: raw }));
        rawRounds.push(rr.result);
        cpu.raw(rr);
        ctx.log(`row 2: round ${r + 1}/${rounds} ours`);
        const oo = await withCpu(gw.process.pid, () => closedLoop({ concurrency, durationMs: roundMs, op: place }));
        ourRounds.push(oo.result);
        cpu.ours(oo);
      }
      const o = merge(ourRounds);
      const c = merge(rawRounds);
      const placed = await countRows(pool, 'public.orders');
      // PostgreSQL reports tuple counters shortly after commit; wait until every order shows, then a
      // little longer so that any extra write would show too.
      let writes = await waitFor(
        async () => {
          const w = (await tupleWrites(pool)) - writesBefore;
          return w >= placed ? w : undefined;
        },
        { timeoutMs: 15000, intervalMs: 250, what: 'pg_stat_user_tables to catch up' },
      ).catch(() => undefined);
      if (writes !== undefined) {
        await new Promise((r) => setTimeout(r, 1500));
        writes = (await tupleWrites(pool)) - writesBefore;
      }
      const tablesAfter = await writesByTable(pool);
      const writesPerTable = Object.fromEntries(
        Object.entries(tablesAfter)
          .map(([t, n]) => [t, n - (tablesBefore[t] ?? 0)])
          .filter(([, n]) => n !== 0),
      );
      const publicationRows = await countRows(pool, 'public.event_publications');
      const outboxRows = await countRows(pool, 'public.outbox_events');
      const writesPerOrder = writes === undefined ? Number.NaN : round(writes / Math.max(placed, 1), 3);
      const oursPerSec = perSecond(o.ok, o.elapsedMs);
      const ceiling = perSecond(c.ok, c.elapsedMs);
      const ratio = throughputRatio(oursPerSec, ceiling);
      return {
        id: 2,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: oursPerSec,
        ceiling,
        ratio,
        target: TARGET,
        met: ratio >= 0.6 && writesPerOrder === 1 && publicationRows === 0 && outboxRows === 0,
        details: {
          concurrency,
          rounds,
          roundMs,
          ours: { ok: o.ok, failed: o.failed, latencyMs: summarize(o.latencies), failures: o.failures, outcomes },
          raw: { ok: c.ok, failed: c.failed, latencyMs: summarize(c.latencies), failures: c.failures },
          cpuMsPerOp: cpu.perOp(o.ok, c.ok),
          perRound: ourRounds.map((r, i) => ({
            ours: perSecond(r.ok, r.elapsedMs),
            raw: perSecond(rawRounds[i]!.ok, rawRounds[i]!.elapsedMs),
          })),
          normalPath: {
            ordersPlaced: placed,
            rowWritesMeasured: writes,
            writesPerTable,
            writesPerOrder,
            eventPublicationRows: publicationRows,
            outboxRows,
          },
        },
        note: o.failed ? `${o.failed} of our orders failed: ${o.failures.join('; ')}` : undefined,
      };
    } finally {
      await gw?.stop().catch(() => undefined);
      await producer.disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await env.cleanup();
    }
  },
};
