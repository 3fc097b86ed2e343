// The faults that need precise timing. A relay is SIGKILLed while it holds claimed (PROCESSING) rows,
// and a projector between its ClickHouse insert and its offset commit. Both are caught the same way:
// a backlog is built while the process is frozen (SIGSTOP), it is thawed, and the moment its work
// shows (rows PROCESSING; new rows in ClickHouse) it is frozen again. While frozen, the suite checks
// the evidence (claimed rows still PROCESSING; rows in ClickHouse beyond the committed offset): if
// present, the process is SIGKILLed in exactly that state; if not, it is thawed and watched again.
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
export async function killRelayMidBatch(r: Resources, cluster: Cluster, name: string, maxTries = 50): Promise<{ tries: number; leftProcessing: number }> {
  let tries = 0;
  while (tries < maxTries) {
    cluster.freeze(name);
    await waitFor(async () => (await outboxCount(r, "status = 'NEW'")) >= 40, { timeoutMs: 30000, intervalMs: 100, what: 'an outbox backlog' });
    cluster.thaw(name);
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && tries < maxTries) {
      if ((await outboxCount(r, "status = 'PROCESSING'")) === 0) continue;
      cluster.freeze(name);
      tries++;
      const leftProcessing = await outboxCount(r, "status = 'PROCESSING'");
      if (leftProcessing > 0) {
        await cluster.kill(name);
        return { tries, leftProcessing };
      }
      cluster.thaw(name);
    }
  }
  await cluster.kill(name);
  return { tries, leftProcessing: await outboxCount(r, "status = 'PROCESSING'") };
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
 * SIGKILLs `name` (a projector) while ClickHouse holds rows it inserted but whose offsets it has not
 * committed (they will be re-delivered); returns those partitions.
 */
export async function killProjectorBetweenInsertAndCommit(r: Resources, cluster: Cluster, name: string, backlog: () => Promise<void>, maxTries = 50): Promise<{ tries: number; uncommittedPartitions: string[] }> {
  const groupId = projectorGroupId(r.settings);
  const topics = [r.topics.fitnessResults, r.topics.orders];
  const uncommitted = async () => {
    const [committed, projected] = await Promise.all([committedOffsets(r, groupId, topics), projectedOffsets(r)]);
    return [...projected.newest].filter(([k, o]) => o >= (committed.get(k) ?? 0n)).map(([k]) => k);
  };
  let tries = 0;
  while (tries < maxTries) {
    cluster.freeze(name);
    await backlog();
    let seen = (await projectedOffsets(r)).physical;
    cluster.thaw(name);
    const deadline = Date.now() + 10000;
    while (Date.now() < deadline && tries < maxTries) {
      const now = (await projectedOffsets(r)).physical;
      if (now === seen) continue;
      cluster.freeze(name);
      tries++;
      const partitions = await uncommitted();
      if (partitions.length > 0) {
        await cluster.kill(name);
        return { tries, uncommittedPartitions: partitions };
      }
      seen = now;
      cluster.thaw(name);
    }
  }
  await cluster.kill(name);
  return { tries, uncommittedPartitions: await uncommitted() };
}
