// The canonical form (src/domains/contract/canonical.ts) as SQL, one dialect per engine. Each
// dialect formats one cell of each kind from a column expression; `lineSql` joins the cells of a field
// list in order. Here, below the domains, because each domain's source SQL and the projection
// mapping only map field names to column expressions; the formatting rules live here once.
// Inputs are trusted expressions (column names, constants), never user values.
import { CELL_SEPARATOR, type FieldKind, type FieldSpec } from './canonical';

export interface CellDialect {
  cell(type: FieldKind, expr: string): string;
  /** Joins formatted cells with US. */
  join(cells: string[]): string;
  /** Lowercase hex MD5 of a line. */
  digest(line: string): string;
  /** bucket(id) for an expression that is the id's text. */
  bucket(idText: string, buckets: number): string;
  /** The first 64 bits of a digest (hex text expression), as a number the engine can XOR. */
  hash64(digestHex: string): string;
  /** Aggregate: XOR of hash64 values. */
  xorAgg(hash: string): string;
}

const US_CODE = CELL_SEPARATOR.charCodeAt(0);

function safeScale(scale: number): number {
  if (!Number.isInteger(scale) || scale < 0 || scale > 9) throw new TypeError('bad decimal scale');
  return scale;
}

/** MariaDB/MySQL: connections run with time_zone '+00:00'; DATETIME(3) columns hold UTC. */
export const mysqlCells: CellDialect = {
  cell(type, e) {
    switch (type.kind) {
      case 'int':
        return `COALESCE(CAST(${e} AS CHAR), '\\\\N')`;
      case 'decimal':
        return `COALESCE(CAST(CAST(${e} AS DECIMAL(38, ${safeScale(type.scale)})) AS CHAR), '\\\\N')`;
      case 'text':
        return `COALESCE(CONVERT(${e} USING utf8mb4), '\\\\N')`;
      case 'bool':
        return `COALESCE(IF(${e}, '1', '0'), '\\\\N')`;
      case 'timestamp':
        return `COALESCE(CONCAT(LEFT(DATE_FORMAT(${e}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z'), '\\\\N')`;
      case 'list':
        throw new TypeError('list fields have no MySQL source');
    }
  },
  join: (cells) => `CONCAT_WS(CHAR(${US_CODE} USING utf8mb4), ${cells.join(', ')})`,
  digest: (line) => `MD5(${line})`,
  bucket: (id, b) => `(CAST(CONV(LEFT(MD5(${id}), 8), 16, 10) AS UNSIGNED) % ${b})`,
  hash64: (d) => `CAST(CONV(LEFT(${d}, 16), 16, 10) AS UNSIGNED)`,
  xorAgg: (h) => `BIT_XOR(${h})`,
};

/** Decimal text at a fixed scale from exact integer units, the same on 18.16 and current releases. */
function chDecimal(e: string, scale: number): string {
  const f = 10 ** safeScale(scale);
  if (scale === 0) return `toString(toInt64(${e}))`;
  const u = `toInt64(${e} * ${f})`;
  return `concat(if(${u} < 0, '-', ''), toString(intDiv(abs(${u}), ${f})), '.', substring(toString(${f} + abs(${u}) % ${f}), 2))`;
}

/**
 * ISO text of epoch milliseconds, assembled from date parts: toString(DateTime) prints epoch second 0
 * as 0000-00-00 on 18.16, and formatDateTime's %M changed meaning in later releases.
 */
function chTimestamp(e: string): string {
  const t = `toDateTime(intDiv(${e}, 1000), 'UTC')`;
  const two = (part: string) => `substring(toString(100 + ${part}(${t})), 2)`;
  const date = `toString(toYear(${t})), '-', ${two('toMonth')}, '-', ${two('toDayOfMonth')}`;
  const time = `${two('toHour')}, ':', ${two('toMinute')}, ':', ${two('toSecond')}, '.', substring(toString(1000 + ${e} % 1000), 2)`;
  return `concat(${date}, 'T', ${time}, 'Z')`;
}

/**
 * ClickHouse 18.16 and current: timestamps are *_ms UInt64 columns (epoch milliseconds, UTC);
 * decimals are formatted from integer units because releases differ in printing trailing zeros.
 */
export const clickhouseCells: CellDialect = {
  cell(type, e) {
    switch (type.kind) {
      case 'int':
        return `ifNull(toString(${e}), '\\\\N')`;
      case 'decimal':
        return `ifNull(${chDecimal(e, type.scale)}, '\\\\N')`;
      case 'text':
        return `ifNull(toString(${e}), '\\\\N')`;
      case 'bool':
        return `ifNull(if(${e} != 0, '1', '0'), '\\\\N')`;
      case 'timestamp':
        return `ifNull(${chTimestamp(e)}, '\\\\N')`;
      case 'list':
        throw new TypeError('list fields are built by the domain (parallel arrays)');
    }
  },
  join: (cells) => `concat(${cells.flatMap((c, i) => (i ? [`'\\x${US_CODE.toString(16)}'`, c] : [c])).join(', ')})`,
  digest: (line) => `lower(hex(MD5(${line})))`,
  bucket: (id, b) => `(reinterpretAsUInt32(reverse(substring(MD5(${id}), 1, 4))) % ${b})`,
  hash64: (d) => `reinterpretAsUInt64(reverse(unhex(substring(${d}, 1, 16))))`,
  xorAgg: (h) => `groupBitXor(${h})`,
};

/** PostgreSQL: timestamptz columns; sessions run in UTC but the format converts explicitly anyway. */
export const postgresCells: CellDialect = {
  cell(type, e) {
    switch (type.kind) {
      case 'int':
        return `COALESCE((${e})::bigint::text, '\\N')`;
      case 'decimal':
        return `COALESCE(round((${e})::numeric, ${safeScale(type.scale)})::text, '\\N')`;
      case 'text':
        return `COALESCE((${e})::text, '\\N')`;
      case 'bool':
        return `COALESCE(CASE WHEN (${e}) THEN '1' ELSE '0' END, '\\N')`;
      case 'timestamp':
        return `COALESCE(to_char((${e}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '\\N')`;
      case 'list':
        throw new TypeError('list fields are built by the domain (jsonb arrays)');
    }
  },
  join: (cells) => `concat_ws(chr(${US_CODE}), ${cells.join(', ')})`,
  digest: (line) => `md5(${line})`,
  bucket: (id, b) => `((('x' || left(md5(${id}), 8))::bit(32)::bigint) % ${b})`,
  hash64: (d) => `(('x' || left(${d}, 16))::bit(64)::bigint)`,
  xorAgg: (h) => `bit_xor(${h})`,
};

/**
 * The canonical line of `fields` in one dialect. `columnOf` gives each field's expression; for a
 * list field it must return the finished list text (built with the same dialect's cells).
 */
export function lineSql(d: CellDialect, fields: readonly FieldSpec[], columnOf: (field: FieldSpec) => string): string {
  return d.join(fields.map((f) => (f.type.kind === 'list' ? columnOf(f) : d.cell(f.type, columnOf(f)))));
}
