// INSERT INTO a projection table: one statement per flush carrying every row of that table, each
// row a JSONEachRow line derived from the table's spec (src/domains/<domain>/projection/): every
// column is written (18.16 ignores DEFAULTs of omitted JSONEachRow fields), times as UTC DateTime
// text next to their exact *_ms twins, decimals and UInt64 offsets as exact JSON numbers (validated
// canonical text in number position). No locking: ClickHouse inserts are append-only; a repeated
// insert of the same version is collapsed by ReplacingMergeTree(version) and by argMax at read time.
import { clickHouseDateTime } from '../../domains/contract/clickHouseTime';
import type { ColumnType, ProjectionTable } from '../../domains/contract/projectionTable';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { canonicalDecimal } from '../../shared/decimal';
import { insertJsonEachRow, uint64Text } from './insertJsonEachRow';

type CellText = (value: unknown) => string;

function decimalText(table: string, column: string, scale: number): CellText {
  return (v) => {
    // Defence in depth: the decoder already canonicalised; this is what makes the raw write safe.
    const c = typeof v === 'string' ? canonicalDecimal(v, scale) : undefined;
    if (c === undefined) throw new TypeError(`${table}.${column} is not a canonical decimal`);
    return c;
  };
}

/** The JSON text of one cell: exact raw text for decimals and string-held UInt64s, JSON for the rest. */
function cellText(table: string, column: string, type: ColumnType): CellText {
  switch (type.kind) {
    case 'decimal':
      return decimalText(table, column, type.scale);
    case 'dateTime':
      return (v) => JSON.stringify(clickHouseDateTime(v as number));
    case 'uint':
      return type.bits === 64 ? (v) => (typeof v === 'string' ? uint64Text(v) : JSON.stringify(v)) : JSON.stringify;
    case 'array': {
      if (type.of.kind === 'string' || type.of.kind === 'uint') return JSON.stringify;
      const item = cellText(table, column, type.of);
      return (v) => `[${(v as unknown[]).map(item).join(',')}]`;
    }
    case 'string':
      return JSON.stringify;
  }
}

// The serialiser of a table is built once (column names quoted once: the projector serialises tens of
// thousands of rows per second, and this was a visible share of its CPU profile: docs/benchmarks.md).
const serialisers = new WeakMap<object, (row: never) => string>();

/** The JSONEachRow line of one row of `table`, every column in table order. */
export function rowLine<Row>(table: ProjectionTable<Row>, row: Row): string {
  let line = serialisers.get(table) as ((row: Row) => string) | undefined;
  if (!line) {
    const cells = table.columns.map((c) => ({
      key: JSON.stringify(c.name),
      text: cellText(table.name, c.name, c.type),
      value: (r: Row) => c.value(r),
    }));
    line = (r: Row) => {
      let out = '{';
      for (const c of cells) out += `${out.length > 1 ? ',' : ''}${c.key}:${c.text(c.value(r))}`;
      return `${out}}`;
    };
    serialisers.set(table, line);
  }
  return line(row);
}

export function insertRows<Row>(ch: ClickHouseClient, database: string, table: ProjectionTable<Row>, rows: readonly Row[]): Promise<void> {
  return insertJsonEachRow(
    ch,
    database,
    table.name,
    rows.map((r) => rowLine(table, r)),
  );
}
