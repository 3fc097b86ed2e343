// A relay process that kills itself with SIGKILL at a chosen stage of its first batch, for the crash
// rows of the seed's failure table. Run: node --import tsx test/support/crashingRelay.ts
//   TIDEMARK_TEST_SETTINGS  JSON settings of the test environment
//   CRASH_AT                claimed | published
//   LEASE_MS                claim lease (short, so the survivor reclaims quickly)
import 'reflect-metadata';
import type { Settings } from '../../src/config/settings';
import { openResources } from '../../src/app/resources';
import { createRegistry } from '../../src/metrics/registry';
import { silentLogger } from '../../src/shared/logger';
import { exponentialBackoff } from '../../src/relay/backoff';
import { fromKafkaSink } from '../../src/relay/outbox/kafkaSink';
import { outboxMetrics } from '../../src/relay/outbox/metrics';
import { startOutboxRelay } from '../../src/relay/outbox/relay';

const settings = JSON.parse(process.env.TIDEMARK_TEST_SETTINGS ?? '{}') as Settings;
const crashAt = process.env.CRASH_AT;
const leaseMs = Number(process.env.LEASE_MS ?? 1500);
const resources = openResources(settings);

startOutboxRelay({
  store: { kind: 'mysql', shard: 0, db: resources.mysql.shard(0).db },
  sink: fromKafkaSink(resources.kafka, { timeoutMs: leaseMs - 500 }),
  policy: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: 10 }),
  batchSize: 100,
  pollIntervalMs: 20,
  leaseMs,
  publishTimeoutMs: leaseMs - 500,
  owner: 'crashing-relay',
  metrics: outboxMetrics(createRegistry(false)),
  logger: silentLogger,
  onStage: (stage) => {
    // Dies at once, like a kill -9 or a power cut: no completion, no cleanup, no drain.
    if (stage === crashAt) process.kill(process.pid, 'SIGKILL');
  },
});
