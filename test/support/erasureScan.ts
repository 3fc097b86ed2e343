// An independent search for a person in every store, for the erasure tests: it shares no code with the
// erasure's own verification (src/erasure/stores). Raw SQL over every table of every shard and of the
// ClickHouse database, a throw-away Kafka consumer from the earliest offset of every topic of the
// deployment. Each row or record is rendered as text (blobs and base64 payloads decoded) and matched
// against the person's traces; a hit names where it was found.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Knex } from 'knex';
import type { ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { ident, str } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';

/** What would show a student: their id under a user-id key, an aggregate of theirs, a result value of theirs. */
export interface StudentTraces {
  userId: number;
  dataIds: readonly string[];
  /** Result values only this person's results carry (e.g. '3.391'), searched under a `result` key. */
  values: readonly string[];
}

/**
 * What would show a customer (a pseudonymising erasure: the orders stay, so their ids are no trace):
 * the customer's id as the string value of a customerId / customer_id key.
 */
export interface CustomerTraces {
  customerId: string;
}

export type Traces = StudentTraces | CustomerTraces;

const escapeRegex = (s: string) => s.replace(/[\\^$.|?*+()[\]{}-]/g, '\\$&');

/** The customer's id under a customer-id key; quotes may be escaped (JSON kept as text inside a row). */
function customerTraceIn(text: string, t: CustomerTraces): string | undefined {
  const id = escapeRegex(JSON.stringify(t.customerId).slice(1, -1));
  const q = '\\\\?"';
  return new RegExp(`${q}(customer_?id|customerId)${q}\\s*:\\s*${q}${id}${q}`, 'i').test(text) ? 'customerId' : undefined;
}

const BASE64 = /^[A-Za-z0-9+/]{24,}={0,2}$/;

/** The row as text, with blobs and base64 strings decoded so a payload cannot hide a trace. */
function render(v: unknown): string {
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (typeof v === 'string' && BASE64.test(v)) return `${v} ${Buffer.from(v, 'base64').toString('utf8')}`;
  if (Array.isArray(v)) return v.map(render).join(' ');
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `"${k}":${render(x)}`)
      .join(',');
  return JSON.stringify(v) ?? '';
}

/** Where in `text` the person shows, or undefined. `withIds`: also their aggregate ids (not in the guard table). */
export function traceIn(text: string, t: Traces, withIds = true): string | undefined {
  if ('customerId' in t) return customerTraceIn(text, t);
  const user = new RegExp(`"(user_?id|userId)"\\s*:\\s*"?${t.userId}"?(?![0-9])`, 'i');
  if (user.test(text)) return 'userId';
  const value = t.values.find((v) => new RegExp(`"result"\\s*:\\s*"?${v.replace('.', '\\.')}(?![0-9])`).test(text));
  if (value) return `value ${value}`;
  if (!withIds) return undefined;
  for (const id of t.dataIds) {
    const key = new RegExp(
      `"(data_?id|dataId|aggregate_?id|aggregateId|message_key|key)"\\s*:\\s*"?${id}"?(?![0-9])|fitness-result-${id}-v`,
      'i',
    );
    if (key.test(text)) return `aggregate ${id}`;
  }
  return undefined;
}

/** Every table of every shard database: 'db.table: what' per hit. */
export async function scanShards(shards: readonly { db: Knex }[], t: Traces): Promise<string[]> {
  const hits: string[] = [];
  for (const { db } of shards) {
    const [{ name }] = (await db.raw('SELECT DATABASE() AS name'))[0] as { name: string }[];
    const tables = ((await db.raw('SHOW TABLES'))[0] as Record<string, string>[]).map((r) => Object.values(r)[0]!);
    for (const table of tables)
      for (const row of (await db.raw('SELECT * FROM ??', [table]))[0] as Record<string, unknown>[]) {
        const hit = traceIn(render(row), t);
        if (hit) hits.push(`${name}.${table}: ${hit}`);
      }
  }
  return hits;
}

/** Every table of the PostgreSQL database. */
export async function scanPostgres(pg: Knex, t: Traces): Promise<string[]> {
  const hits: string[] = [];
  const tables = (await pg.raw(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows as { tablename: string }[];
  for (const { tablename } of tables)
    for (const row of (await pg.raw('SELECT * FROM ??', [tablename])).rows as Record<string, unknown>[]) {
      const hit = traceIn(render(row), t);
      if (hit) hits.push(`${tablename}: ${hit}`);
    }
  return hits;
}

/** Every table of the ClickHouse database, every physical row (no FINAL); `guard` tables may hold aggregate ids. */
export async function scanClickHouse(ch: ClickHouseClient, database: string, t: Traces, guard = 'erased_aggregates'): Promise<string[]> {
  const hits: string[] = [];
  const rs = await ch.query({
    query: `SELECT name FROM system.tables WHERE database = ${str(database)}`,
    format: 'JSONEachRow',
  });
  for (const { name } of await rs.json<{ name: string }>()) {
    const rows = await (
      await ch.query({ query: `SELECT * FROM ${ident(database)}.${ident(name)}`, format: 'JSONEachRow' })
    ).json<Record<string, unknown>>();
    for (const row of rows) {
      const hit = traceIn(render(row), t, !name.startsWith(guard));
      if (hit) hits.push(`${name}: ${hit}`);
    }
  }
  return hits;
}

/**
 * Every topic under the prefix, from the earliest offset to the end: 'topic/partition/offset: what' per hit.
 * The publication-state topic (an operator's stream of event ids, aggregate ids and states, never event
 * data) may name aggregates; the person's id and results are searched there too.
 */
export async function scanKafka(kafka: Kafka, prefix: string, t: Traces): Promise<string[]> {
  const idsAllowed = (topic: string) => topic === `${prefix}.publication-state`;
  const admin = kafka.admin();
  await admin.connect();
  const topics = (await admin.listTopics()).filter((n) => n.startsWith(`${prefix}.`));
  const ends = new Map<string, number>();
  for (const topic of topics)
    for (const p of await admin.fetchTopicOffsets(topic))
      if (Number(p.high) > Number(p.low)) ends.set(`${topic}/${p.partition}`, Number(p.high));
  await admin.disconnect();
  const hits: string[] = [];
  const reached = new Set<string>();
  if (ends.size === 0) return hits;
  const consumer = kafka.consumer({ groupId: `erasure-scan-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...new Set([...ends.keys()].map((k) => k.slice(0, k.lastIndexOf('/'))))], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        const where = `${topic}/${partition}`;
        const text = `"key":${JSON.stringify(message.key?.toString('utf8') ?? '')},"value":${message.value ? render(message.value) : 'null'}`;
        // A tombstone names an aggregate but nothing readable: only a record with a value can be a trace.
        const hit = message.value ? traceIn(text, t, !idsAllowed(topic)) : undefined;
        if (hit) hits.push(`${where}/${message.offset}: ${hit}`);
        if (Number(message.offset) + 1 >= (ends.get(where) ?? 0)) reached.add(where);
      },
    });
    await waitFor(() => reached.size === ends.size, { timeoutMs: 60000, intervalMs: 100, what: 'every partition read to its end' });
  } finally {
    await consumer.disconnect();
  }
  return hits;
}
