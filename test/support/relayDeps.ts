// Relay dependencies and tables for tests and test processes (no jest here: the crashing relay child
// imports it): a deterministic policy, an always-closed circuit, fast polling, and the stores of a test
// environment as publication stores.
import type { Resources } from '../../src/app/resources';
import { alwaysClosedCircuit } from '../../src/infra/kafka/kafkaCircuit';
import { createRegistry } from '../../src/metrics/registry';
import { discardStateChanges } from '../../src/publication/stateChanges/stateChange';
import type { PublicationStore } from '../../src/publication/stores';
import { exponentialBackoff } from '../../src/shared/backoff';
import { fromPublicationsTable } from '../../src/publication/kafkaFirst/publicationsTable';
import type { EventSink } from '../../src/relay/kafkaSink';
import { fromOutboxTable } from '../../src/publication/outbox/outboxTable';
import { outboxRelayMetrics, publicationsRelayMetrics } from '../../src/relay/relayMetrics';
import type { PublicationTable } from '../../src/publication/relayPort/publicationTable';
import type { RelayDeps } from '../../src/relay/relayDeps';
import { randomIds, systemClock } from '../../src/shared/clock';
import { testLogger } from './logCapture';

export type TableKind = 'outbox' | 'publications';

export function mysqlStore(env: { resources: Resources }, shard = 0): PublicationStore {
  return { name: `mysql-shard-${shard}`, kind: 'mysql', shard, db: env.resources.mysql.shard(shard).db, domains: ['fitness'] };
}

export function postgresStore(env: { resources: Resources }): PublicationStore {
  return { name: 'postgres', kind: 'postgres', shard: 0, db: env.resources.pg, domains: ['orders'] };
}

/** Relay dependencies for tests: a deterministic policy, an always-closed circuit, fast polling. */
export function testRelayDeps(
  store: PublicationStore,
  sink: EventSink,
  over: Partial<RelayDeps> = {},
  kind: TableKind = 'outbox',
  registry = createRegistry(false),
): RelayDeps {
  return {
    sink,
    circuit: alwaysClosedCircuit,
    policy: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: 10, random: () => 1 }),
    giveUpAgeMs: 0,
    batchSize: 100,
    pollIntervalMs: 20,
    leaseMs: 10000,
    publishTimeoutMs: 5000,
    owner: 'test-relay',
    ids: randomIds,
    clock: systemClock,
    metrics: kind === 'outbox' ? outboxRelayMetrics(registry, store) : publicationsRelayMetrics(registry, store),
    logger: testLogger(),
    stateChanges: discardStateChanges,
    ...over,
  };
}

export function tableOf(store: PublicationStore, kind: TableKind = 'outbox'): PublicationTable {
  return kind === 'outbox' ? fromOutboxTable(store) : fromPublicationsTable(store);
}
