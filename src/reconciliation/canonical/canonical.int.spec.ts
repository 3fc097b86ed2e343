// The canonical form computed by MySQL, ClickHouse, PostgreSQL and TypeScript agrees byte for byte
// on tricky values: the very SQL the reconciler runs (fitness source, orders source, both projection
// tables) is applied to one-row derived tables holding each value as its real column type.
import { fromClickHouse } from '../../infra/clickhouse/fromClickHouse';
import { decimal, str, uint } from '../../infra/clickhouse/literal';
import { mysqlKnex } from '../../infra/mysql/fromMysql';
import { postgresKnex } from '../../infra/postgres/fromPostgres';
import { fitnessLineSql } from '../../domains/fitness/reconciliation/sql/scopeRows';
import { orderLineSql } from '../../domains/orders/reconciliation/sql/scopeRows';
import { projectionMappingOf } from '../target/projectionMapping';
import { bucketOf, canonicalLine, digestOf, hash64 } from '../../domains/contract/canonical';
import { fieldsOf } from '../../domains/canonicalFields';
import { clickhouseCells, mysqlCells, postgresCells } from '../../domains/contract/sqlCells';
import { testSettings } from '../../../test/support/testEnv';

interface FitnessCase {
  dataId: number;
  version: number;
  isDeleted: boolean;
  result: string;
  unit: string | null;
  createdAt: string;
  updatedAt: string;
}

const fitnessCases: FitnessCase[] = [
  {
    dataId: 900001,
    version: 2,
    isDeleted: false,
    result: '2.31',
    unit: 'm',
    createdAt: '2026-03-01T08:00:00.000Z',
    updatedAt: '2026-03-01T08:05:00.120Z',
  },
  {
    dataId: 900101,
    version: 2,
    isDeleted: false,
    result: '2.310',
    unit: 'm',
    createdAt: '2026-03-01T08:00:00.000Z',
    updatedAt: '2026-03-01T08:05:00.120Z',
  },
  {
    dataId: 1,
    version: 1,
    isDeleted: true,
    result: '0',
    unit: 'count',
    createdAt: '1970-01-01T00:00:00.001Z',
    updatedAt: '2000-02-29T23:59:59.999Z',
  },
  {
    dataId: 9007199254740991,
    version: 2147483647,
    isDeleted: false,
    result: '9999999.999',
    unit: 'µs',
    createdAt: '2105-12-31T23:59:59.999Z',
    updatedAt: '2105-12-31T23:59:59.999Z',
  },
  {
    dataId: 42,
    version: 3,
    isDeleted: false,
    result: '0.001',
    unit: "it's\\|",
    createdAt: '2026-12-31T23:59:59.500Z',
    updatedAt: '2027-01-01T00:00:00.007Z',
  },
  {
    dataId: 43,
    version: 1,
    isDeleted: false,
    result: '10.5',
    unit: null,
    createdAt: '2026-06-15T12:00:00.010Z',
    updatedAt: '2026-06-15T12:00:00.010Z',
  },
];

const orderCases = [
  {
    orderId: '0b8f2a4e-3c1d-4e5f-8a9b-0c1d2e3f4a5b',
    customerId: 'customer|1',
    currency: 'EUR',
    total: '39.8',
    itemCount: 2,
    items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }],
    createdAt: '2026-03-01T08:00:00.123Z',
  },
  {
    orderId: 'f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f',
    customerId: "O'Brien ✓",
    currency: 'JPY',
    total: '0.0001',
    itemCount: 3,
    items: [
      { sku: 'é\\x', quantity: 1, unitPrice: '0.0001' },
      { sku: 'B', quantity: 2, unitPrice: '0' },
    ],
    createdAt: '1999-12-31T23:59:59.999Z',
  },
  {
    orderId: '00000000-0000-4000-8000-000000000000',
    customerId: 'c',
    currency: 'USD',
    total: '123456789.1234',
    itemCount: 0,
    items: [],
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

const base = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5 };

describe('canonical form across MySQL, ClickHouse, PostgreSQL and TypeScript', () => {
  const settings = testSettings();
  const my = mysqlKnex(settings, undefined, 1);
  const pg = postgresKnex(settings, 'postgres', 1);
  const ch = fromClickHouse(settings, { database: null });
  afterAll(async () => {
    await Promise.all([my.destroy(), pg.destroy(), ch.close()]);
  });

  it.each(fitnessCases)('fitness result %#: same line, digest, bucket and hash on every engine', async (c) => {
    for (const level of ['IDS', 'CONTENT'] as const) {
      const ts = canonicalLine(fieldsOf('fitness', level), { ...base, ...c });
      const line = fitnessLineSql(level);
      const [myRows] = (await my.raw(
        `SELECT ${line} AS line, ${mysqlCells.digest(line)} AS d, ${mysqlCells.bucket('CAST(r.data_id AS CHAR)', 97)} AS b,
                ${mysqlCells.hash64(mysqlCells.digest(line))} AS h FROM (
          SELECT CAST(? AS UNSIGNED) AS data_id, ? AS detect_id, ? AS user_id, ? AS project_id, ? AS school_id, ? AS grade,
                 CAST(? AS DECIMAL(10, 3)) AS result, ? AS unit, ? AS version, ? AS is_deleted,
                 CAST(? AS DATETIME(3)) AS created_at, CAST(? AS DATETIME(3)) AS updated_at) r`,
        [
          String(c.dataId),
          base.detectId,
          base.userId,
          base.projectId,
          base.schoolId,
          base.grade,
          c.result,
          c.unit,
          c.version,
          c.isDeleted ? 1 : 0,
          c.createdAt.slice(0, 23).replace('T', ' '),
          c.updatedAt.slice(0, 23).replace('T', ' '),
        ],
      )) as [{ line: string; d: string; b: number; h: string | number }[]];
      const chLine = projectionMappingOf('fitness').line(level);
      const rs = await ch.query({
        query: `SELECT ${chLine} AS line, ${clickhouseCells.digest(chLine)} AS d, ${clickhouseCells.bucket('toString(data_id)', 97)} AS b,
                       toString(${clickhouseCells.hash64(clickhouseCells.digest(chLine))}) AS h FROM (
          SELECT toUInt64(${uint(c.dataId)}) AS data_id, toUInt64(${base.detectId}) AS detect_id, toUInt64(${base.userId}) AS user_id,
                 toUInt64(${base.projectId}) AS project_id,
                 toUInt64(${base.schoolId}) AS school_id, toUInt16(${base.grade}) AS grade, ${decimal(c.result, 3)} AS result,
                 ${c.unit === null ? 'CAST(NULL AS Nullable(String))' : str(c.unit)} AS unit, toUInt64(${uint(c.version)}) AS version,
                 toUInt8(${c.isDeleted ? 1 : 0}) AS is_deleted,
                 toUInt64(${uint(Date.parse(c.createdAt))}) AS created_at_ms, toUInt64(${uint(Date.parse(c.updatedAt))}) AS source_commit_ms)`,
        format: 'JSONEachRow',
      });
      const [chRow] = await rs.json<{ line: string; d: string; b: number; h: string }>();
      expect(myRows[0]!.line).toBe(ts);
      expect(chRow!.line).toBe(ts);
      expect(myRows[0]!.d).toBe(digestOf(ts));
      expect(chRow!.d).toBe(digestOf(ts));
      expect(Number(myRows[0]!.b)).toBe(bucketOf(String(c.dataId), 97));
      expect(Number(chRow!.b)).toBe(bucketOf(String(c.dataId), 97));
      expect(BigInt(myRows[0]!.h)).toBe(hash64(digestOf(ts)));
      expect(BigInt(chRow!.h)).toBe(hash64(digestOf(ts)));
    }
  });

  it('treats 2.31 and 2.310 as the same value, and a different unit as different content', () => {
    const f = fieldsOf('fitness', 'CONTENT');
    const a = canonicalLine(f, { ...base, ...fitnessCases[0]! });
    expect(canonicalLine(f, { ...base, ...fitnessCases[1]!, dataId: 900001 })).toBe(a);
    expect(canonicalLine(f, { ...base, ...fitnessCases[0]!, unit: 'M' })).not.toBe(a);
    expect(a.split('\u001f')).toContain('2.310');
    expect(canonicalLine(f, { ...base, ...fitnessCases[5]! }).split('\u001f')).toContain('\\N');
  });

  it.each(orderCases)('order %#: same line and digest in PostgreSQL, ClickHouse and TypeScript', async (o) => {
    for (const level of ['IDS', 'CONTENT'] as const) {
      const ts = canonicalLine(fieldsOf('orders', level), { ...o, version: 1, isDeleted: false });
      const line = orderLineSql(level);
      const r = await pg.raw<{ rows: { line: string; d: string; b: string; h: string }[] }>(
        `SELECT ${line} AS line, ${postgresCells.digest(line)} AS d, ${postgresCells.bucket('r.order_id::text', 97)} AS b,
                ${postgresCells.hash64(postgresCells.digest(line))}::text AS h FROM (
          SELECT ?::uuid AS order_id, ?::text AS customer_id, ?::char(3) AS currency, ?::jsonb AS items, ?::numeric(24, 4) AS total,
                 ?::int AS item_count, ?::timestamptz AS created_at) r`,
        [o.orderId, o.customerId, o.currency, JSON.stringify(o.items), o.total, o.itemCount, o.createdAt],
      );
      const chLine = projectionMappingOf('orders').line(level);
      const rs = await ch.query({
        query: `SELECT ${chLine} AS line, ${clickhouseCells.digest(chLine)} AS d, ${clickhouseCells.bucket('order_id', 97)} AS b FROM (
          SELECT ${str(o.orderId)} AS order_id, ${str(o.customerId)} AS customer_id, ${str(o.currency)} AS currency, ${decimal(o.total, 4)} AS total,
                 toUInt32(${o.itemCount}) AS item_count, CAST([${o.items.map((i) => str(i.sku)).join(', ')}] AS Array(String)) AS item_skus,
                 CAST([${o.items.map((i) => i.quantity).join(', ')}] AS Array(UInt32)) AS item_quantities,
                 CAST([${o.items.map((i) => decimal(i.unitPrice, 4)).join(', ')}] AS Array(Decimal(18, 4))) AS item_unit_prices,
                 toUInt64(1) AS version, toUInt8(0) AS is_deleted, toUInt64(${uint(Date.parse(o.createdAt))}) AS created_at_ms)`,
        format: 'JSONEachRow',
      });
      const [chRow] = await rs.json<{ line: string; d: string; b: number }>();
      const pgRow = r.rows[0]!;
      expect(pgRow.line).toBe(ts);
      expect(chRow!.line).toBe(ts);
      expect(pgRow.d).toBe(digestOf(ts));
      expect(chRow!.d).toBe(digestOf(ts));
      expect(Number(pgRow.b)).toBe(bucketOf(o.orderId, 97));
      expect(Number(chRow!.b)).toBe(bucketOf(o.orderId, 97));
      expect(BigInt.asUintN(64, BigInt(pgRow.h))).toBe(hash64(digestOf(ts)));
    }
  });
});
