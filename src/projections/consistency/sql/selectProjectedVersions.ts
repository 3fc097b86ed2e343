// The newest version the projection holds of each named aggregate, deleted or not (a tombstone is a
// version too): one query per check, whatever the mix of domains, so a read with a consistency token
// costs at most two of these (the first check, and a last one if it timed out). Unscoped on purpose:
// it answers only "is version N of an aggregate this caller wrote projected", never a row.
import { ident, list, str, uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../../read/readModelStore';
import type { WrittenVersion } from '../consistencyToken';

interface Row {
  d: string;
  id: string;
  v: number | string;
}

const DATA_ID = /^[0-9]{1,19}$/;

/** Projected version per write, in the order given (0 when none is projected). */
export async function selectProjectedVersions(
  store: ReadModelStore,
  database: string,
  writes: readonly WrittenVersion[],
): Promise<number[]> {
  const fitness = [...new Set(writes.filter((w) => w.domain === 'fitness' && DATA_ID.test(w.aggregateId)).map((w) => w.aggregateId))];
  const orders = [...new Set(writes.filter((w) => w.domain === 'orders').map((w) => w.aggregateId))];
  const parts: string[] = [];
  if (fitness.length)
    parts.push(
      `SELECT 'fitness' AS d, toString(data_id) AS id, max(version) AS v FROM ${ident(database)}.fitness_results ` +
        `WHERE data_id IN ${list(fitness, uint)} GROUP BY data_id`,
    );
  if (orders.length)
    parts.push(
      `SELECT 'orders' AS d, order_id AS id, max(version) AS v FROM ${ident(database)}.orders ` +
        `WHERE order_id IN ${list(orders, str)} GROUP BY order_id`,
    );
  if (parts.length === 0) return writes.map(() => 0);
  const rows = await store.select<Row>('consistencyVersions', parts.join(' UNION ALL '));
  const found = new Map(rows.map((r) => [`${r.d}\u0000${r.id}`, Number(r.v)]));
  return writes.map((w) => found.get(`${w.domain}\u0000${w.aggregateId}`) ?? 0);
}
