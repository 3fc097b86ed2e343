// Projector throughput: 50,000 fitness events (40,000 new results + 10,000 corrections) are produced
// to a fresh topic first, then one projector member (default settings: PROJECTOR_BATCH_SIZE,
// PROJECTOR_FLUSH_INTERVAL_MS, PROJECTOR_CONCURRENT_PARTITIONS) consumes them into ClickHouse. The
// clock runs from the projector's start until its checkpoints reach the log end on every partition,
// so it includes the group join. Run: npx tsx bench/projectorThroughput.ts [events]
import { createRegistry } from '../src/metrics/registry';
import { fromKafkaProducer } from '../src/infra/kafka/producer';
import { ident } from '../src/infra/clickhouse/literal';
import { readCheckpoints } from '../src/projections/freshness/sql/readCheckpoints';
import { startProjector } from '../src/projections/projector';
import { exponentialBackoff } from '../src/shared/backoff';
import { systemClock } from '../src/shared/clock';
import { sleep } from '../src/shared/lifecycle';
import { silentLogger } from '../src/shared/logger';
import { fitnessEvent, produceEvents } from '../test/support/projectionEvents';
import { createTestEnv } from '../test/support/testEnv';

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 50000);
  const corrections = Math.floor(total / 5);
  const env = await createTestEnv({ kafkaPartitions: 6 });
  const s = env.settings;
  const t = env.resources.topics;
  try {
    const events = [];
    for (let i = 0; i < total - corrections; i++) {
      events.push(
        fitnessEvent({
          dataId: (i + 1) * 100 + (i % 2),
          detectId: 10001 + (i % 5),
          projectId: 3,
          schoolId: i % 40,
          grade: 1 + (i % 9),
          userId: i,
          result: `1.${String(i % 1000).padStart(3, '0')}`,
          version: 1,
        }),
      );
    }
    for (let i = 0; i < corrections; i++) {
      events.push(
        fitnessEvent({
          dataId: (i + 1) * 100 + (i % 2),
          detectId: 10001 + (i % 5),
          projectId: 3,
          schoolId: i % 40,
          grade: 1 + (i % 9),
          userId: i,
          result: '2.310',
          version: 2,
        }),
      );
    }
    const producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    const p0 = Date.now();
    await produceEvents(producer, t.events.fitness, events);
    const produceMs = Date.now() - p0;
    await producer.disconnect();

    const admin = env.resources.kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(t.events.fitness);
    await admin.disconnect();

    const groupId = `${s.kafkaTopicPrefix}.projector`;
    const started = Date.now();
    const projector = await startProjector({
      kafka: env.resources.kafka,
      clickhouse: env.resources.clickhouse,
      database: s.clickhouseDatabase,
      topics: t,
      groupId,
      batchSize: s.projectorBatchSize,
      flushIntervalMs: s.projectorFlushIntervalMs,
      concurrentPartitions: s.projectorConcurrentPartitions,
      retry: exponentialBackoff({ baseMs: s.projectorRetryBaseMs, maxMs: s.projectorRetryMaxMs, maxAttempts: Infinity }),
      clock: systemClock,
      logger: silentLogger,
      registry: createRegistry(false),
    });
    await projector.joined();
    const joinedMs = Date.now() - started;
    for (;;) {
      const cps = new Map(
        (await readCheckpoints(env.resources.clickhouse, s.clickhouseDatabase, groupId, t.events.fitness)).map((c) => [
          c.partition,
          c.nextOffset,
        ]),
      );
      if (ends.every((e) => (cps.get(e.partition) ?? 0n) >= BigInt(e.high))) break;
      await sleep(50);
    }
    const elapsedMs = Date.now() - started;
    await projector.stop();

    const db = ident(s.clickhouseDatabase);
    const [counts] = await (
      await env.resources.clickhouse.query({
        query: `SELECT count() AS physical, uniqExact(data_id) AS logical, (SELECT count() FROM (SELECT data_id, argMax(result, version) AS l_r FROM ${db}.fitness_results GROUP BY data_id HAVING l_r = toDecimal64('2.310', 3))) AS corrected FROM ${db}.fitness_results`,
        format: 'JSONEachRow',
      })
    ).json<{ physical: string; logical: string; corrected: string }>();
    const applyMs = elapsedMs - joinedMs;
    console.log(
      JSON.stringify(
        {
          events: total,
          partitions: ends.length,
          batchSize: s.projectorBatchSize,
          flushIntervalMs: s.projectorFlushIntervalMs,
          produceMs,
          joinMs: joinedMs,
          elapsedMs,
          rowsPerSecond: Math.round(total / (elapsedMs / 1000)),
          rowsPerSecondAfterJoin: Math.round(total / (applyMs / 1000)),
          physicalRows: Number(counts!.physical),
          logicalResults: Number(counts!.logical),
          correctedResultsAt2310: Number(counts!.corrected),
        },
        null,
        2,
      ),
    );
  } finally {
    await env.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
