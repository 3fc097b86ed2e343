// Read-model queries on the real ClickHouse: several physical versions per aggregate, tombstones,
// duplicates, keyset pages, reports, and hostile filter values.
import { toKafkaRecord, type DomainEvent } from '../../publication/event';
import type { Principal } from '../../auth/principal';
import { createRegistry } from '../../metrics/registry';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { hostileStrings } from '../../../test/support/hostile';
import { fitnessEvent, orderEvent } from '../../../test/support/projectionEvents';
import type { FreshnessService } from '../freshness/freshnessService';
import { mapMessage } from '../mapMessage';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { FITNESS_RESULTS, type FitnessRow } from '../../domains/fitness/projection/fitnessResultsTable';
import { ORDERS, type OrderRow } from '../../domains/orders/projection/ordersTable';
import { insertRows } from '../sql/insertRows';
import { createReadModels, type ReadModels } from './readModels';
import { fromClickHouseReads } from './readModelStore';

const insertFitnessResults = (ch: ClickHouseClient, db: string, rows: FitnessRow[]) => insertRows(ch, db, FITNESS_RESULTS, rows);
const insertOrders = (ch: ClickHouseClient, db: string, rows: OrderRow[]) => insertRows(ch, db, ORDERS, rows);

const noFreshness = {} as FreshnessService; // not used by these queries
// Unscoped, no suppression: what the queries return before any scope (readScope.int.spec.ts has the scopes).
const operator: Principal = { subject: 'op', roles: ['operator'] };
const campaign = { detectId: 10001, projectId: 3 };

function rows<T extends FitnessRow | OrderRow>(events: DomainEvent[]): T[] {
  return events.map((e, i) => {
    const m = mapMessage(
      { topic: 't', partition: 0, offset: String(i), key: null, value: Buffer.from(toKafkaRecord(e).value) },
      e.domain,
      Date.now(),
    );
    if (m.kind !== 'row') throw new Error(`unmappable test event: ${m.kind === 'dead' ? m.deadLetter.reason : 'tombstone'}`);
    return m.projected.row as T;
  });
}

describe('read models (latest state only)', () => {
  let env: TestEnv;
  let rm: ReadModels;
  const registry = createRegistry(false);

  beforeAll(async () => {
    env = await createTestEnv();
    rm = createReadModels({
      store: fromClickHouseReads(env.resources.clickhouse, { registry }),
      database: env.settings.clickhouseDatabase,
      freshness: noFreshness,
      maxPageSize: 200,
      reportMinGroupSize: 5,
    });
    const ch = env.resources.clickhouse;
    const db = env.settings.clickhouseDatabase;
    const f = (dataId: number, userId: number, schoolId: number, grade: number, result: string, version: number, isDeleted = false) =>
      fitnessEvent({ ...campaign, dataId, userId, schoolId, grade, result, version, isDeleted });
    // Separate inserts = separate parts, so the physical versions really coexist until a merge.
    await insertFitnessResults(
      ch,
      db,
      rows([f(900001, 4, 7, 5, '2.210', 1), f(100, 1, 7, 5, '1.900', 1), f(200, 2, 7, 6, '2.000', 1), f(300, 3, 8, 5, '1.500', 1)]),
    );
    await insertFitnessResults(ch, db, rows([f(900001, 4, 7, 5, '2.310', 2), f(300, 3, 8, 5, '1.500', 2, true)]));
    await insertFitnessResults(ch, db, rows([f(900001, 4, 7, 5, '2.210', 1), f(900001, 4, 7, 5, '2.310', 2)])); // late v1 + duplicate v2
    await insertFitnessResults(
      ch,
      db,
      rows([fitnessEvent({ detectId: 10001, projectId: 4, dataId: 400, userId: 1, schoolId: 7, grade: 5, result: '9.000', version: 1 })]),
    );
    const o = (orderId: string, currency: string, total: string, createdAt: string) =>
      orderEvent({ orderId, currency, total, createdAt, items: [{ sku: 'A', quantity: 1, unitPrice: total }] });
    const orders = [
      o('00000000-0000-4000-8000-000000000001', 'EUR', '10.5000', '2026-03-01T10:00:00.000Z'),
      o('00000000-0000-4000-8000-000000000002', 'EUR', '0.2500', '2026-03-01T23:59:59.999Z'),
      o('00000000-0000-4000-8000-000000000003', 'USD', '99999999999999.9999', '2026-03-02T00:00:00.000Z'),
      o('00000000-0000-4000-8000-000000000004', 'EUR', '1.0000', '2026-03-05T00:00:00.000Z'),
    ];
    await insertOrders(ch, db, rows(orders));
    await insertOrders(ch, db, rows(orders.slice(0, 2))); // re-delivered
  });
  afterAll(() => env?.cleanup());

  it('returns the latest version of each result, never a tombstoned one, in one query for many ids', async () => {
    const before = await queries('fitnessByIds');
    const got = await rm.fitnessByIds(operator, [900001, 100, 300, 999999]);
    expect(await queries('fitnessByIds')).toBe(before + 1);
    // In the order asked, null where there is nothing to show.
    expect(got.map((v) => v?.dataId ?? null)).toEqual(['900001', '100', null, null]); // 300 deleted, 999999 never projected
    expect(got[0]).toMatchObject({ result: '2.310', version: 2, detectId: 10001, userId: 4, unit: 'm', shard: 1 });
    expect(got[0]!.updatedAt.toISOString()).toBe('2026-03-01T08:01:00.000Z');
  });

  it('coalesces point lookups of concurrent callers into one query, and answers each caller its own ids', async () => {
    const before = await queries('fitnessByIds');
    const [a, b, c] = await Promise.all([
      rm.fitnessByIds(operator, [900001]),
      rm.fitnessByIds(operator, [100, 300]),
      rm.fitnessByIds(operator, [999999, 900001]),
    ]);
    expect(await queries('fitnessByIds')).toBe(before + 1);
    expect(a.map((v) => v?.dataId ?? null)).toEqual(['900001']);
    expect(b.map((v) => v?.dataId ?? null)).toEqual(['100', null]);
    expect(c.map((v) => v?.dataId ?? null)).toEqual([null, '900001']);
    // Nothing is remembered between turns: a later lookup asks the store again.
    await rm.fitnessByIds(operator, [900001]);
    expect(await queries('fitnessByIds')).toBe(before + 2);
  });

  it('pages through a filter with stable cursors', async () => {
    const p1 = await rm.fitnessPage(operator, { detectId: 10001, projectId: 3 }, 2);
    expect(p1.nodes.map((n) => n.dataId)).toEqual(['100', '200']);
    expect(p1.hasNextPage).toBe(true);
    const p2 = await rm.fitnessPage(operator, { detectId: 10001, projectId: 3 }, 2, 200);
    expect(p2.nodes.map((n) => n.dataId)).toEqual(['900001']);
    expect(p2.hasNextPage).toBe(false);
    expect((await rm.fitnessPage(operator, { schoolId: 7, grade: 5, projectId: 3 }, 10)).nodes.map((n) => n.dataId)).toEqual([
      '100',
      '900001',
    ]);
  });

  it('reports count, min, max, average and percentiles over the latest non-deleted results only', async () => {
    const bySchool = await rm.fitnessReport(operator, { detectId: 10001, projectId: 3, groupBy: 'SCHOOL' });
    // School 7: 100 (1.900), 200 (2.000), 900001 (2.310 latest of 3 physical versions, counted once).
    // School 8: only 300, deleted: no group.
    expect(bySchool.suppressedGroups).toBe(0);
    expect(bySchool.groups).toEqual([
      { key: 7, unit: 'm', count: 3, min: '1.900', max: '2.310', average: '2.070', p50: '2.000', p90: '2.310', p99: '2.310' },
    ]);
    const byGrade = await rm.fitnessReport(operator, { detectId: 10001, projectId: 3, groupBy: 'GRADE' });
    expect(byGrade.groups.map((g) => [g.key, g.count, g.max])).toEqual([
      [5, 2, '2.310'],
      [6, 1, '2.000'],
    ]);
    expect(await rm.fitnessReport(operator, { detectId: 10001, projectId: 99, groupBy: 'SCHOOL' })).toEqual({
      groups: [],
      suppressedGroups: 0,
    });
  });

  it('reads orders by id and newest first in keyset pages, with exact money', async () => {
    const [o] = await rm.ordersByIds(operator, ['00000000-0000-4000-8000-000000000003']);
    expect(o).toMatchObject({
      total: '99999999999999.9999',
      currency: 'USD',
      itemCount: 1,
      items: [{ sku: 'A', quantity: 1, unitPrice: '99999999999999.9999' }],
    });
    const p1 = await rm.ordersPage(operator, { currency: 'EUR' }, 2);
    expect(p1.nodes.map((n) => n.orderId.slice(-1))).toEqual(['4', '2']);
    const last = p1.nodes[1]!;
    const p2 = await rm.ordersPage(operator, { currency: 'EUR' }, 2, { createdAtMs: last.createdAt.getTime(), orderId: last.orderId });
    expect(p2.nodes.map((n) => n.orderId.slice(-1))).toEqual(['1']);
    expect(p2.hasNextPage).toBe(false);
    expect(
      (await rm.ordersPage(operator, { from: new Date('2026-03-01T23:59:59.999Z'), to: new Date('2026-03-02T00:00:00.001Z') }, 10)).nodes,
    ).toHaveLength(2);
  });

  it('reports orders per day and per currency, counting a re-delivered order once and never summing across currencies', async () => {
    const from = new Date('2026-03-01T00:00:00Z');
    const to = new Date('2026-03-03T00:00:00Z');
    expect((await rm.orderReport(operator, { from, to, groupBy: 'DAY' })).groups).toEqual([
      { key: '2026-03-01', currency: 'EUR', orderCount: 2, itemCount: 2, total: '10.7500', averageTotal: '5.3750' },
      {
        key: '2026-03-02',
        currency: 'USD',
        orderCount: 1,
        itemCount: 1,
        total: '99999999999999.9999',
        averageTotal: '99999999999999.9999',
      },
    ]);
    expect(
      (await rm.orderReport(operator, { from, to: new Date('2026-03-06T00:00:00Z'), groupBy: 'CURRENCY' })).groups.map((g) => [
        g.key,
        g.orderCount,
        g.total,
      ]),
    ).toEqual([
      ['EUR', 3, '11.7500'],
      ['USD', 1, '99999999999999.9999'],
    ]);
  });

  it('stores and returns hostile strings exactly', async () => {
    const evs = hostileStrings.map((s, i) =>
      orderEvent({
        orderId: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        customerId: s || 'empty',
        createdAt: '2026-04-01T00:00:00.000Z',
        items: [{ sku: s || 'empty', quantity: 1, unitPrice: '1.0000' }],
        total: '1.0000',
      }),
    );
    await insertOrders(env.resources.clickhouse, env.settings.clickhouseDatabase, rows(evs));
    const got = await rm.ordersByIds(
      operator,
      evs.map((e) => e.aggregateId),
    );
    evs.forEach((_, i) =>
      expect(got[i]).toMatchObject({ customerId: hostileStrings[i] || 'empty', items: [{ sku: hostileStrings[i] || 'empty' }] }),
    );
    for (const s of hostileStrings.filter(Boolean))
      expect((await rm.ordersPage(operator, { customerId: s }, 5)).nodes.map((n) => n.customerId)).toEqual([s]);
  });

  it('treats hostile filter values as plain values', async () => {
    for (const s of hostileStrings) {
      expect((await rm.ordersPage(operator, { customerId: s, currency: `${s}X` }, 5)).nodes).toEqual([]);
      expect(await rm.ordersByIds(operator, [s])).toEqual([null]);
    }
  });

  async function queries(name: string): Promise<number> {
    const m = await registry.getSingleMetric('tidemark_read_model_queries_total')!.get();
    return m.values.find((v) => v.labels.query === name)?.value ?? 0;
  }
});
