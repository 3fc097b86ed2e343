// A projector for integration tests, on a test environment's engines: small batches, short flush
// interval and retries, silent logs, its own registry, a short session so a stopped member's
// partitions move quickly. Suites override what they test.
import { createRegistry } from '../../src/metrics/registry';
import type { ProjectorOptions } from '../../src/projections/projectorOptions';
import { exponentialBackoff } from '../../src/shared/backoff';
import { systemClock } from '../../src/shared/clock';
import type { TestEnv } from './testEnv';
import { testLogger } from './logCapture';

export function testProjectorOptions(env: TestEnv, over: Partial<ProjectorOptions> = {}): ProjectorOptions {
  return {
    kafka: env.resources.kafka,
    clickhouse: env.resources.clickhouse,
    database: env.settings.clickhouseDatabase,
    topics: env.resources.topics,
    groupId: `${env.settings.kafkaTopicPrefix}.projector`,
    batchSize: 500,
    flushIntervalMs: 50,
    concurrentPartitions: 3,
    retry: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: Infinity }),
    clock: systemClock,
    logger: testLogger(),
    registry: createRegistry(false),
    consumer: { sessionTimeout: 10000, heartbeatInterval: 500 },
    ...over,
  };
}
