// Commit-to-visible latency of the fitness read model at a steady write rate, through the real write
// path: recordFitnessResult over GraphQL (shard transaction with the outbox row) -> outbox relay ->
// Kafka -> projector -> ClickHouse. Latency = first time the row is selectable in ClickHouse minus the
// shard's commit time of that version (result.updatedAt). Visibility is polled every 20 ms, so values
// carry up to 20 ms of sampling granularity. Settings are the defaults (RELAY_POLL_INTERVAL_MS,
// PROJECTOR_FLUSH_INTERVAL_MS, ...). Run: npx tsx bench/commitToVisible.ts [writesPerSecond] [seconds]
import { startTidemark } from '../src/app/start';
import { ident, list, uint } from '../src/infra/clickhouse/literal';
import { sleep, waitFor } from '../src/shared/lifecycle';
import { RecordFitnessResultDocument } from '../test/generated/graphql';
import { execute } from '../test/support/graphqlClient';
import { createTestEnv } from '../test/support/testEnv';
import { authHeader } from '../test/support/tokens';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const rate = Number(process.argv[2] ?? 20);
  const seconds = Number(process.argv[3] ?? 30);
  const env = await createTestEnv();
  const app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
  const url = app.gateway!.url;
  const headers = await authHeader(env.settings, 'service');
  const db = ident(env.settings.clickhouseDatabase);
  const committed = new Map<string, number>();
  const latencies: number[] = [];
  let stop = false;
  let writeErrors = 0;
  const errorCodes = new Map<string, number>();

  const write = async (i: number) => {
    const r = await execute(
      url,
      RecordFitnessResultDocument,
      { input: { detectId: 10001, userId: i + 1, projectId: 3, schoolId: 1 + (i % 20), grade: 5, result: '2.21', unit: 'm' } },
      headers,
    );
    if (r.errors || !r.data) {
      writeErrors++;
      errorCodes.set(String(r.errors?.[0]?.extensions?.code), (errorCodes.get(String(r.errors?.[0]?.extensions?.code)) ?? 0) + 1);
      return;
    }
    committed.set(r.data.recordFitnessResult.result.dataId, Date.parse(r.data.recordFitnessResult.result.updatedAt as string));
  };
  // Visibility poller: the moment a committed row first appears in ClickHouse.
  const poller = (async () => {
    while (!stop || committed.size) {
      const ids = [...committed.keys()];
      if (ids.length) {
        const rs = await app.resources.clickhouse.query({
          query: `SELECT DISTINCT data_id FROM ${db}.fitness_results WHERE data_id IN ${list(ids, uint)}`,
          format: 'JSONEachRow',
        });
        const now = Date.now();
        for (const r of await rs.json<{ data_id: string }>()) {
          const at = committed.get(String(r.data_id));
          if (at === undefined) continue;
          latencies.push(now - at);
          committed.delete(String(r.data_id));
        }
      }
      await sleep(20);
    }
  })();

  try {
    // Warm-up: the projector has joined its group once a first write is visible.
    await write(0);
    await waitFor(() => committed.size === 0, { timeoutMs: 60000, what: 'warm-up write visible' });
    latencies.length = 0;

    const started = Date.now();
    const inflight: Promise<void>[] = [];
    for (let i = 1; i <= rate * seconds; i++) {
      const due = started + (i * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      inflight.push(write(i));
    }
    await Promise.all(inflight);
    const writeSeconds = (Date.now() - started) / 1000;
    await waitFor(() => committed.size === 0, { timeoutMs: 120000, what: 'every write visible' });
    stop = true;
    await poller;
    const sorted = [...latencies].sort((a, b) => a - b);
    // Where the time goes: commit -> relay marked SENT (outbox rows), commit -> projector mapped (ingested_at_ms).
    const relayed: number[] = [];
    for (const sh of app.resources.mysql.shards) {
      const rows = (await sh
        .db('outbox_events')
        .select(sh.db.raw('TIMESTAMPDIFF(MICROSECOND, created_at, sent_at) / 1000 AS ms'))
        .whereNotNull('sent_at')) as { ms: string | number }[];
      relayed.push(...rows.map((r) => Number(r.ms)));
    }
    const ingested = (
      await (
        await app.resources.clickhouse.query({
          query: `SELECT toInt64(ingested_at_ms) - toInt64(source_commit_ms) AS ms FROM ${db}.fitness_results`,
          format: 'JSONEachRow',
        })
      ).json<{ ms: string }>()
    ).map((r) => Number(r.ms));
    const p = (xs: number[], q: number) =>
      pct(
        [...xs].sort((a, b) => a - b),
        q,
      );
    console.log(
      JSON.stringify(
        {
          targetWritesPerSecond: rate,
          achievedWritesPerSecond: Math.round((latencies.length / writeSeconds) * 10) / 10,
          samples: sorted.length,
          writeErrors,
          errorCodes: Object.fromEntries(errorCodes),
          p50Ms: pct(sorted, 50),
          p90Ms: pct(sorted, 90),
          p99Ms: pct(sorted, 99),
          maxMs: sorted[sorted.length - 1],
          breakdown: {
            commitToSentP50Ms: p(relayed, 50),
            commitToSentP99Ms: p(relayed, 99),
            commitToIngestP50Ms: p(ingested, 50),
            commitToIngestP99Ms: p(ingested, 99),
          },
          settings: {
            relayPollIntervalMs: env.settings.relayPollIntervalMs,
            projectorFlushIntervalMs: env.settings.projectorFlushIntervalMs,
            projectorBatchSize: env.settings.projectorBatchSize,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    stop = true;
    committed.clear();
    await poller.catch(() => undefined);
    await app.stop();
    await env.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
