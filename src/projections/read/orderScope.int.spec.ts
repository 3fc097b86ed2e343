// Who sees what in orders, on the real ClickHouse: a customer reads only its own orders (another's
// is null in a lookup and absent from pages, whatever the filter asks), has no reports, and an
// analyst's order report suppresses groups with fewer than the minimum number of distinct customers.
// customer_id never changes across an order's versions, so the scope is a plain WHERE condition.
import type { Principal } from '../../auth/principal';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { projectedRows as rows } from '../../../test/support/projectedRows';
import { orderEvent } from '../../../test/support/projectionEvents';
import type { FreshnessService } from '../freshness/freshnessService';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ORDERS, type OrderRow } from '../../domains/orders/projection/ordersTable';
import { insertRows } from '../sql/insertRows';
import { createReadModels, type ReadModels } from './readModels';
import { fromClickHouseReads } from './readModelStore';

const insertOrders = (ch: ClickHouseClient, db: string, rows: OrderRow[]) => insertRows(ch, db, ORDERS, rows);

const operator: Principal = { subject: 'op', roles: ['operator'] };
const customer = (customerId: string): Principal => ({ subject: customerId, roles: ['customer'], customerId });
const analyst: Principal = { subject: 'a', roles: ['analyst'] };

describe('order read models within the caller scope', () => {
  let env: TestEnv;
  let rm: ReadModels;

  beforeAll(async () => {
    env = await createTestEnv();
    rm = createReadModels({
      store: fromClickHouseReads(env.resources.clickhouse),
      database: env.settings.clickhouseDatabase,
      freshness: {} as FreshnessService,
      maxPageSize: 100,
      reportMinGroupSize: 5,
    });
    const ch = env.resources.clickhouse;
    const db = env.settings.clickhouseDatabase;
    const o = (n: number, customerId: string, createdAt: string) =>
      orderEvent({ orderId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, customerId, createdAt });
    await insertOrders(
      ch,
      db,
      rows([
        o(1, 'c-1', '2026-05-01T10:00:00.000Z'),
        o(2, 'c-2', '2026-05-01T11:00:00.000Z'),
        ...[3, 4, 5, 6].map((n) => o(n, `c-${n}`, '2026-05-01T12:00:00.000Z')),
        ...[7, 8, 9, 10, 11].map((n) => o(n, `c-${n}`, '2026-05-02T12:00:00.000Z')),
        o(12, 'c-3', '2026-05-01T13:00:00.000Z'),
      ]),
    );
  });
  afterAll(() => env?.cleanup());

  it("customers read only their own orders: another's is null and absent from pages", async () => {
    const [mine, theirs] = await rm.ordersByIds(customer('c-1'), [
      '00000000-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000002',
    ]);
    expect([mine?.customerId, theirs]).toEqual(['c-1', null]);
    expect((await rm.ordersPage(customer('c-3'), {}, 10)).nodes.map((o) => o.orderId.slice(-2))).toEqual(['12', '03']);
    expect((await rm.ordersPage(customer('c-1'), { customerId: 'c-2' }, 10)).nodes).toEqual([]);
    expect((await rm.ordersPage(operator, { customerId: 'c-2' }, 10)).nodes).toHaveLength(1);
    await expect(rm.orderReport(customer('c-1'), { from: new Date(0), to: new Date(), groupBy: 'DAY' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('suppresses order report groups with fewer distinct customers than the minimum', async () => {
    const q = { from: new Date('2026-05-01T00:00:00Z'), to: new Date('2026-05-03T00:00:00Z'), groupBy: 'DAY' as const };
    // 1 May: 7 orders of 6 customers (c-3 twice) -> shown; 2 May: 5 customers -> shown.
    expect((await rm.orderReport(analyst, q)).suppressedGroups).toBe(0);
    const narrow = { ...q, to: new Date('2026-05-01T12:30:00Z') }; // 1 May until 12:30: c-1 .. c-6, 6 customers
    expect((await rm.orderReport(analyst, narrow)).groups.map((g) => [g.key, g.orderCount])).toEqual([['2026-05-01', 6]]);
    const four = { ...q, from: new Date('2026-05-01T10:30:00Z'), to: new Date('2026-05-01T12:30:00Z') }; // c-2 .. c-6: 5
    expect((await rm.orderReport(analyst, four)).groups).toHaveLength(1);
    const fewer = { ...q, from: new Date('2026-05-01T11:30:00Z'), to: new Date('2026-05-01T12:30:00Z') }; // c-3 .. c-6: 4
    expect(await rm.orderReport(analyst, fewer)).toEqual({ groups: [], suppressedGroups: 1 });
    expect((await rm.orderReport(operator, fewer)).groups.map((g) => g.orderCount)).toEqual([4]);
  });
});
