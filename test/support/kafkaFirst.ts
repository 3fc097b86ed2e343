// Test wiring of the kafka-first publisher against any broker address (the real one, a closed port,
// or a blackhole), with a registry and a capturing logger, plus the relay tests' shared fixtures.
// Used by integration and e2e tests only.
import type { Knex } from 'knex';
import pino from 'pino';
import type { Domain, DomainEvent } from '../../src/publication/event';
import { publicationRowFor } from '../../src/publication/kafkaFirst/publicationRow';
import type { PublicationStore } from '../../src/publication/stores';
import { upsertNotPublished } from '../../src/publication/kafkaFirst/upsertNotPublished';
import type { TestEnv } from './testEnv';
import type { Topics } from '../../src/infra/kafka/fromKafka';
import { createRegistry, type Registry } from '../../src/metrics/registry';
import { exponentialBackoff } from '../../src/shared/backoff';
import { systemClock } from '../../src/shared/clock';
import { alwaysClosedCircuit, type KafkaCircuit } from '../../src/infra/kafka/kafkaCircuit';
import type { Logger } from '../../src/shared/logger';
import type { Publisher } from '../../src/publication/publisher';
import { discardStateChanges, type StateChangeSink } from '../../src/publication/stateChanges/stateChange';
import { fromKafkaFirstPublisher } from '../../src/publication/kafkaFirst/kafkaFirstPublisher';
import { kafkaFirstMetrics } from '../../src/publication/kafkaFirst/metrics';
import { fromDirectKafkaProducer, fromProducerFactory, type RecordSender } from '../../src/publication/kafkaFirst/recordSender';
import { DIRECT_ATTEMPTS } from '../../src/app/wiring/kafkaFirst';

export interface CapturedLogger {
  logger: Logger;
  lines: string[];
}

export function capturingLogger(): CapturedLogger {
  const lines: string[] = [];
  return { lines, logger: pino({ level: 'info' }, { write: (s: string) => void lines.push(s) }) };
}

export interface TestPublisher {
  publisher: Publisher;
  sender: RecordSender;
  registry: Registry;
  log: CapturedLogger;
  close(): Promise<void>;
}

export function testKafkaFirstPublisher(o: {
  brokers: string[];
  topics: Topics;
  attemptTimeoutMs?: number;
  deadlineMs?: number;
  fallbackTimeoutMs?: number;
  registry?: Registry;
  stateChanges?: StateChangeSink;
  circuit?: KafkaCircuit;
}): TestPublisher {
  const attemptTimeoutMs = o.attemptTimeoutMs ?? 1000;
  const registry = o.registry ?? createRegistry(false);
  const log = capturingLogger();
  const sender = fromProducerFactory(
    () => fromDirectKafkaProducer({ kafkaBrokers: o.brokers, kafkaClientId: 'tidemark-test' }, attemptTimeoutMs),
    { resetAfterFailure: true },
  );
  const publisher = fromKafkaFirstPublisher({
    sender,
    topics: o.topics,
    policy: {
      attempts: DIRECT_ATTEMPTS,
      attemptTimeoutMs,
      deadlineMs: o.deadlineMs ?? 3500,
      retry: exponentialBackoff({ baseMs: 10, maxMs: 40, maxAttempts: DIRECT_ATTEMPTS }),
    },
    fallbackTimeoutMs: o.fallbackTimeoutMs ?? 2000,
    clock: systemClock,
    metrics: kafkaFirstMetrics(registry),
    logger: log.logger,
    stateChanges: o.stateChanges ?? discardStateChanges,
    circuit: o.circuit ?? alwaysClosedCircuit,
  });
  return { publisher, sender, registry, log, close: () => sender.close() };
}

/** The value of one labelled series of a counter or gauge (0 when absent). */
export async function metricValue(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want));
  return hit ? Number(hit.value) : 0;
}

// ---- relay test helpers: the same scenarios run on PostgreSQL (orders) and MariaDB (fitness) ----

export const RELAY_ENGINES = [
  ['postgres', 'orders'],
  ['mysql', 'fitness'],
] as const;
export type RelayEngine = (typeof RELAY_ENGINES)[number][0];

export function storeFor(env: TestEnv, engine: RelayEngine, domain: Domain): PublicationStore {
  return engine === 'postgres'
    ? { name: 'postgres', kind: 'postgres', shard: 0, db: env.resources.pg, domains: [domain] }
    : { name: 'mysql-shard-0', kind: 'mysql', shard: 0, db: env.resources.mysql.shard(0).db, domains: [domain] };
}

/** A small event of the domain, numbered so tests can find its row; `note` lands in the payload. */
export function sampleEvent(domain: Domain, n: number, note = ''): DomainEvent {
  const id = domain === 'orders' ? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` : String(n * 100);
  return {
    eventId: domain === 'orders' ? `order-placed:${id}:v1` : `fitness-result-${id}-v1`,
    domain,
    type: domain === 'orders' ? 'OrderPlaced' : 'FitnessResultRecorded',
    aggregateId: id,
    version: 1,
    schemaVersion: 1,
    isDeleted: false,
    occurredAt: new Date('2026-01-02T03:04:05.678Z'),
    shard: 0,
    data: { n, note },
  };
}

/** Stores the fallback row of sampleEvent(domain, n) and returns its id. */
export async function insertFallback(env: TestEnv, db: Knex, domain: Domain, n: number): Promise<number> {
  await upsertNotPublished(
    db,
    publicationRowFor(sampleEvent(domain, n), env.resources.topics, 'DIRECT_FALLBACK', { attempts: 3, result: 'failure' }),
  );
  return Number(
    (
      (await db('event_publications')
        .where({ event_id: sampleEvent(domain, n).eventId })
        .first()) as { id: number | string }
    ).id,
  );
}
