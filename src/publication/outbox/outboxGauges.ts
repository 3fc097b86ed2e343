// The outbox's operator stats as gauges (rows per status, oldest unsent age, expired claims), read by
// the table's one stats statement (sql/outboxStats.ts). The relay role refreshes them on a timer
// (relay/outbox/maintenance.ts), as it does kafka-first's (kafkaFirst/publicationsTable.ts).
import type { PublicationStore } from '../stores';
import { storeLabels, type OutboxMetrics } from './metrics';
import { readOutboxStats } from './sql/outboxStats';

export async function refreshOutboxGauges(o: { store: PublicationStore; metrics: OutboxMetrics }): Promise<void> {
  const labels = storeLabels(o.store);
  const stats = await readOutboxStats(o.store.db);
  o.metrics.oldestUnsentSeconds.set(labels, stats.oldestUnsentAgeSeconds);
  o.metrics.expiredClaims.set(labels, stats.expiredClaims);
  for (const [status, n] of Object.entries(stats.counts)) o.metrics.events.set({ ...labels, status }, n);
}
