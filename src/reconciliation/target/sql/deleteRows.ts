// SQL: remove physical rows from a projection table (ALTER TABLE ... DELETE, a mutation; 18.16 and
// current releases), then wait until ClickHouse finished it. Used only by audited operations: an
// operator's removal of unexpected rows, and the sweep of quarantined content a rebuild replaced.
//
// Locking: a mutation rewrites the affected parts in the background; inserts and reads continue
// meanwhile (readers see old or new parts, never a half-written one). Rows inserted after the
// mutation started are not touched by it. No server-side parameters: `where` is built from
// literal.ts values by the caller.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident, str } from '../../../infra/clickhouse/literal';
import { TidemarkError } from '../../../shared/errors';
import { sleep } from '../../../shared/lifecycle';

export async function deleteRows(ch: ClickHouseClient, database: string, table: string, where: string, timeoutMs = 60000): Promise<void> {
  await ch.command({ query: `ALTER TABLE ${ident(database)}.${ident(table)} DELETE WHERE ${where}` });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rs = await ch.query({
      query: `SELECT count() AS n FROM system.mutations WHERE database = ${str(database)} AND table = ${str(table)} AND is_done = 0`,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: string | number }>();
    if (Number(row?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new TidemarkError('STORE_UNAVAILABLE', 'ClickHouse did not finish the deletion in time; it continues in the background', { retriable: true });
    await sleep(100);
  }
}

/** Physical rows matching `where` (to know whether a deletion is needed at all). */
export async function countRows(ch: ClickHouseClient, database: string, table: string, where: string): Promise<number> {
  const rs = await ch.query({ query: `SELECT count() AS n FROM ${ident(database)}.${ident(table)} WHERE ${where}`, format: 'JSONEachRow' });
  const [row] = await rs.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}
