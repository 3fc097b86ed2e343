// The one way the projector inserts into ClickHouse: pre-serialised JSONEachRow lines in the body of
// a single INSERT, query text in the URL. Pre-serialised because decimals must reach ClickHouse as
// JSON numbers with their exact digits (18.16 rejects quoted decimals, and a JS number would round
// through IEEE-754); the serialisers write validated canonical decimal text in number position.
//
// Acknowledgement: the HTTP response of an INSERT into a MergeTree table arrives after the data is
// written to a part on disk; wait_end_of_query=1 keeps ClickHouse from sending the status before the
// query finished. No async_insert (18.16 has none, and its buffer acknowledgement is weaker). An
// insert has no locks to choose; repeating one is harmless because the tables are
// ReplacingMergeTree(version) and every read selects the latest version.
import { Readable } from 'node:stream';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident } from '../../infra/clickhouse/literal';

export async function insertJsonEachRow(ch: ClickHouseClient, database: string, table: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const body = Buffer.from(lines.join('\n') + '\n', 'utf8');
  const res = await ch.exec({
    query: `INSERT INTO ${ident(database)}.${ident(table)} FORMAT JSONEachRow`,
    values: Readable.from([body], { objectMode: false }),
    clickhouse_settings: { wait_end_of_query: 1 },
  });
  // Drain the (empty) response so the keep-alive socket returns to the pool.
  for await (const chunk of res.stream) void chunk;
}

// Column names repeat on every row; their JSON text is computed once (the projector serialises tens
// of thousands of rows per second, and this was a visible share of its CPU profile: docs/benchmarks.md).
const quotedKeys = new Map<string, string>();
function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 1000) quotedKeys.set(k, q);
  }
  return q;
}

/** A JSON object whose `raw` fields are written verbatim (validated decimal text), the rest JSON-encoded. */
export function jsonLine(fields: Record<string, unknown>, raw: Record<string, string> = {}): string {
  let out = '{';
  for (const k in fields) out += `${out.length > 1 ? ',' : ''}${quotedKey(k)}:${JSON.stringify(fields[k])}`;
  for (const k in raw) out += `${out.length > 1 ? ',' : ''}${quotedKey(k)}:${raw[k]}`;
  return `${out}}`;
}

/** A Kafka offset (or other UInt64) as raw JSON number text; rejects anything but digits. */
export function uint64Text(value: string): string {
  if (!/^(0|[1-9][0-9]{0,19})$/.test(value)) throw new TypeError('not an unsigned 64-bit integer');
  return value;
}
