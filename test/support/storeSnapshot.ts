// A cheap fingerprint of everything a request could have changed in the authoritative stores: row
// counts and content checksums of the fitness tables on every shard (results, deletion log, outbox,
// fallback rows, idempotency keys) and of the orders store (orders, fallback rows, outbox). Two equal
// snapshots mean no row was added, removed or altered in between.
import type { Resources } from '../../src/app/resources';

export type StoreSnapshot = Record<string, string>;

export async function storeSnapshot(r: Resources): Promise<StoreSnapshot> {
  const out: StoreSnapshot = {};
  for (const s of r.mysql.shards) {
    const q = async (name: string, sql: string) => {
      const [rows] = (await s.db.raw(sql)) as [Record<string, unknown>[]];
      out[`shard${s.index}.${name}`] = Object.values(rows[0]!).map(String).join('/');
    };
    await q(
      'fitness_results',
      "SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', data_id, version, result, unit, school_id, grade))), 0) FROM fitness_results",
    );
    await q('fitness_result_deletions', 'SELECT COUNT(*), COALESCE(SUM(version), 0) FROM fitness_result_deletions');
    await q('fitness_idempotency_keys', 'SELECT COUNT(*) FROM fitness_idempotency_keys');
    await q('outbox_events', "SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', event_id, status, attempts))), 0) FROM outbox_events");
    await q('event_publications', 'SELECT COUNT(*) FROM event_publications');
  }
  const pg = async (name: string, sql: string) => {
    const res = (await r.pg.raw(sql)) as { rows: Record<string, unknown>[] };
    out[`orders.${name}`] = Object.values(res.rows[0]!).map(String).join('/');
  };
  await pg(
    'orders',
    "SELECT count(*), coalesce(sum(hashtext(order_id::text || '|' || customer_id || '|' || total::text || '|' || items::text)), 0) FROM orders",
  );
  await pg('event_publications', "SELECT count(*), coalesce(sum(hashtext(event_id || '|' || status)), 0) FROM event_publications");
  await pg('outbox_events', 'SELECT count(*) FROM outbox_events');
  return out;
}

/** Messages on the domain topics (fitness results and orders), summed over partitions. */
export async function domainTopicMessages(r: Resources): Promise<number> {
  const admin = r.kafka.admin();
  await admin.connect();
  try {
    let n = 0;
    for (const t of [r.topics.events.fitness, r.topics.events.orders])
      for (const p of await admin.fetchTopicOffsets(t)) n += Number(p.high) - Number(p.low);
    return n;
  } finally {
    await admin.disconnect();
  }
}
