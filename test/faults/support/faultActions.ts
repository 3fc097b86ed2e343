// The faults that need precise timing. A relay is SIGKILLed while it holds claimed (PROCESSING) rows,
// and a projector between its ClickHouse insert and its offset commit. Both are caught by freezing
// the process (SIGSTOP) while a backlog builds, thawing it, and killing it the moment the work starts;
// the evidence read afterwards says whether the kill really landed mid-batch (claimed rows left
// behind; rows in ClickHouse beyond the committed offset), and the attempt is repeated if not.
import type { Resources } from '../../../src/app/resources';
import { ident } from '../../../src/infra/clickhouse/literal';
import { projectorGroupId } from '../../../src/projections/projectorRole';
import { waitFor } from '../../../src/shared/lifecycle';
import type { Cluster } from './cluster';

async function outboxCount(r: Resources, where: string): Promise<number> {
  let n = 0;
  for (const s of r.mysql.shards) {
    const [rows] = (await s.db.raw(`SELECT COUNT(*) AS n FROM outbox_events WHERE ${where}`)) as [{ n: number }[]];
    n += Number(rows[0]!.n);
  }
  return n;
}

/** SIGKILLs `name` (a relay) while it has claimed rows in flight; returns the rows it left PROCESSING. */
export async function killRelayMidBatch(r: Resources, cluster: Cluster, name: string, maxAttempts = 6): Promise<{ attempts: number; leftProcessing: number }> {
  for (let attempt = 1; ; attempt++) {
    cluster.freeze(name);
    await waitFor(async () => (await outboxCount(r, "status = 'NEW'")) >= 40, { timeoutMs: 30000, intervalMs: 100, what: 'an outbox backlog' });
    cluster.thaw(name);
    await waitFor(async () => (await outboxCount(r, "status = 'PROCESSING'")) > 0, { timeoutMs: 5000, intervalMs: 2 }).catch(() => undefined);
    await cluster.kill(name);
    const leftProcessing = await outboxCount(r, "status = 'PROCESSING'");
    if (leftProcessing > 0 || attempt >= maxAttempts) return { attempts: attempt, leftProcessing };
    await cluster.start(name, ['relay']);
  }
}

async function committedOffsets(r: Resources, groupId: string, topics: string[]): Promise<Map<string, bigint>> {
  const admin = r.kafka.admin();
  await admin.connect();
  try {
    const out = new Map<string, bigint>();
    for (const t of await admin.fetchOffsets({ groupId, topics }))
      for (const p of t.partitions) out.set(`${t.topic}:${p.partition}`, BigInt(p.offset === '-1' ? '0' : p.offset));
    return out;
  } finally {
    await admin.disconnect();
  }
}

async function projectedOffsets(r: Resources): Promise<{ physical: number; newest: Map<string, bigint> }> {
  const db = ident(r.settings.clickhouseDatabase);
  const newest = new Map<string, bigint>();
  let physical = 0;
  for (const [table, topic] of [['fitness_results', r.topics.fitnessResults], ['orders', r.topics.orders]] as const) {
    const rs = await r.clickhouse.query({ query: `SELECT kafka_partition AS p, toString(max(kafka_offset)) AS o, count() AS n FROM ${db}.${table} GROUP BY kafka_partition`, format: 'JSONEachRow' });
    for (const x of await rs.json<{ p: number; o: string; n: string }>()) {
      newest.set(`${topic}:${x.p}`, BigInt(x.o));
      physical += Number(x.n);
    }
  }
  return { physical, newest };
}

/**
 * SIGKILLs `name` (a projector) right after ClickHouse took an insert; returns the partitions whose
 * rows in ClickHouse lie beyond the committed offset (inserted, not committed: they will be re-delivered).
 */
export async function killProjectorBetweenInsertAndCommit(r: Resources, cluster: Cluster, name: string, backlog: () => Promise<void>, maxAttempts = 6): Promise<{ attempts: number; uncommittedPartitions: string[] }> {
  const groupId = projectorGroupId(r.settings);
  for (let attempt = 1; ; attempt++) {
    cluster.freeze(name);
    await backlog();
    const before = (await projectedOffsets(r)).physical;
    cluster.thaw(name);
    await waitFor(async () => (await projectedOffsets(r)).physical > before, { timeoutMs: 15000, intervalMs: 2 }).catch(() => undefined);
    await cluster.kill(name);
    const [committed, projected] = await Promise.all([committedOffsets(r, groupId, [r.topics.fitnessResults, r.topics.orders]), projectedOffsets(r)]);
    const uncommittedPartitions = [...projected.newest].filter(([k, o]) => o >= (committed.get(k) ?? 0n)).map(([k]) => k);
    if (uncommittedPartitions.length > 0 || attempt >= maxAttempts) return { attempts: attempt, uncommittedPartitions };
    await cluster.start(name, ['projector']);
  }
}
