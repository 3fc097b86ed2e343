// The two inputs of every freshness question, built in one place for each process: what the stores
// still hold unpublished (outbox and fallback rows) and how far the projector got against the Kafka
// log. Read models ask them per request (short timeouts: a marker must answer); reconciliation asks
// them before and after a comparison (longer: its verdict waits for them).
import type { Resources } from '../resources';
import type { Settings } from '../../config/settings';
import { projectorGroupId } from '../../projections/projectorGroup';
import { fromPublicationStores, type PendingPublications } from '../../projections/freshness/pendingPublications';
import {
  fromKafkaAndCheckpoints,
  type ProjectionProgressSource,
  type ProjectorStateSource,
} from '../../projections/freshness/projectionProgress';

export interface FreshnessInputs {
  pending: PendingPublications;
  progress: ProjectionProgressSource & ProjectorStateSource;
}

export function freshnessInputsFrom(
  r: Resources,
  o: { onError: (store: string, err: unknown) => void; timeoutMs?: number; settings?: Settings },
): FreshnessInputs {
  const s = o.settings ?? r.settings;
  return {
    pending: fromPublicationStores({ shards: r.mysql, pg: r.pg, onError: o.onError, timeoutMs: o.timeoutMs }),
    progress: fromKafkaAndCheckpoints({
      kafka: r.kafka,
      // Checkpoints are reads: as the read-only user where one is configured (CLICKHOUSE_READ_USER).
      clickhouse: r.clickhouseReads,
      database: s.clickhouseDatabase,
      topics: r.topics,
      consumer: projectorGroupId(s),
      staleAfterMs: s.freshnessStaleAfterMs,
      onError: o.onError,
      timeoutMs: o.timeoutMs,
    }),
  };
}
