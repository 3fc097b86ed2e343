// Relay drain rate: seeds N outbox rows on one fitness shard of a fresh test environment, then times
// 1 and 2 relay instances (each with its own Kafka producer, racing on SKIP LOCKED) draining them to
// the real broker. Usage: npx tsx bench/relayDrain.ts [N=20000] [batchSize=500]
import 'reflect-metadata';
import { createRegistry } from '../src/metrics/registry';
import { exponentialBackoff } from '../src/shared/backoff';
import { fromKafkaSink } from '../src/relay/kafkaSink';
import { outboxMetrics } from '../src/publication/outbox/metrics';
import { startRelayLoop } from '../src/relay/relayLoop';
import { waitFor } from '../src/shared/lifecycle';
import { seedOutbox } from '../test/support/outboxSeed';
import { mysqlStore, tableOf, testRelayDeps } from '../test/support/relayHarness';
import { createTestEnv } from '../test/support/testEnv';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 20000);
  const batchSize = Number(process.argv[3] ?? 500);
  const env = await createTestEnv();
  const store = mysqlStore(env);
  const topic = env.resources.topics.events.fitness;
  const results: { relays: number; seconds: number; perSecond: number }[] = [];
  try {
    for (const relays of [1, 2]) {
      await store.db('outbox_events').delete();
      await seedOutbox(store.db, topic, n, { firstSequence: relays * 1_000_000 });
      const sinks = Array.from({ length: relays }, () => fromKafkaSink(env.resources.kafka, { timeoutMs: 10000 }));
      // Connect the producers before timing: a relay process pays that once at start-up.
      await Promise.all(sinks.map((s) => s.connect?.()));
      const registry = createRegistry(false);
      const metrics = outboxMetrics(registry);
      const started = process.hrtime.bigint();
      const running = sinks.map((sink, i) =>
        startRelayLoop(
          tableOf(store),
          testRelayDeps(
            store,
            sink,
            {
              policy: exponentialBackoff({ baseMs: 500, maxMs: 60000, maxAttempts: 20 }),
              batchSize,
              pollIntervalMs: 5,
              leaseMs: 30000,
              publishTimeoutMs: 10000,
              owner: `bench-${i}`,
            },
            'outbox',
            registry,
          ),
        ),
      );
      // Watch the relays' own sent counter (in memory), so measuring adds no load on the database.
      const sent = async () => (await metrics.sent.get()).values.reduce((s, v) => s + v.value, 0);
      await waitFor(async () => (await sent()) >= n, { timeoutMs: 600000, intervalMs: 10, what: 'drain' });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      await Promise.all(running.map((r) => r.stop()));
      await Promise.all(sinks.map((s) => s.close()));
      const unsent = Number(((await store.db('outbox_events').whereNot('status', 'SENT').count({ c: '*' })) as { c: number }[])[0]!.c);
      if (unsent !== 0) throw new Error(`${unsent} rows were not SENT`);
      const claimLost = (await metrics.claimLost.get()).values.reduce((s, v) => s + v.value, 0);
      results.push({ relays, seconds: Math.round(seconds * 100) / 100, perSecond: Math.round(n / seconds) });
      console.log(
        `N=${n} batch=${batchSize} relays=${relays}: drained in ${seconds.toFixed(2)} s = ${Math.round(n / seconds)} events/s (claim-lost completions: ${claimLost})`,
      );
    }
  } finally {
    await env.cleanup();
  }
  console.log(JSON.stringify(results));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
