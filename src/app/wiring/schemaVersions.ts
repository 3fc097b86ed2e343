// The process's schema version gate (src/publication/schemaVersionGate.ts), built once on first use by
// whichever role publishes events (the gateway's services, the reconciliation's repairs, the
// kafka-first publication reconciler) and stopped by the composition root after all of them.
import type { Registry } from 'prom-client';
import { versionToWrite } from '../../domains/contract/eventContract';
import { projectionOf } from '../../domains/projections';
import { fromKafkaGroupReads } from '../../infra/kafka/groupReads';
import { projectorGroupId } from '../../projections/projectorGroup';
import { readerVersions } from '../../projections/readerVersions';
import { startSchemaVersionGate, type SchemaVersionGate } from '../../publication/schemaVersionGate';
import { exponentialBackoff } from '../../shared/backoff';
import { systemClock, type Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { Resources } from '../resources';

export function schemaVersionGateFrom(r: Resources, o: { registry: Registry; logger: Logger; clock?: Clock }): SchemaVersionGate {
  const s = r.settings;
  // What this deploy knows (EVENT_SCHEMA_VERSION_CAP pins it lower): the gate never writes beyond it.
  const known = readerVersions(s);
  return startSchemaVersionGate({
    group: fromKafkaGroupReads(r.kafka, projectorGroupId(s)),
    known,
    versionToWrite: (domain, agreed) => versionToWrite(projectionOf(domain).decoder.contract, known[domain] ?? 1, agreed),
    refreshMs: s.eventSchemaGateRefreshMs,
    // While Kafka cannot be asked the last view stays; retries back off up to the refresh interval.
    retry: exponentialBackoff({ baseMs: 250, maxMs: s.eventSchemaGateRefreshMs, maxAttempts: Number.POSITIVE_INFINITY }),
    clock: o.clock ?? systemClock,
    logger: o.logger,
    registry: o.registry,
  });
}
