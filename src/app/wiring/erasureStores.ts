// The stores every erasable domain shares, in the order the runner erases them after the domain's
// source: Kafka (tombstones, compaction), ClickHouse (guard, physical delete), the reconciliation
// ledger (keyed markers). Each is built from the process's resources and knows a domain only through
// its module: the subject's field and the projection table.
import { clickhouseLayout } from '../../infra/clickhouse/layout';
import { topicOf } from '../../infra/kafka/fromKafka';
import { domainModule } from '../../domains/registry';
import type { StoreErasure } from '../../domains/contract/erasure';
import { erasureKey } from '../../erasure/erasureKey';
import { clickhouseErasure } from '../../erasure/stores/clickhouseErasure';
import { erasableProjection } from '../../erasure/stores/erasableProjection';
import { kafkaErasure } from '../../erasure/stores/kafkaErasure';
import { ledgerErasure } from '../../erasure/stores/ledgerErasure';
import type { Clock } from '../../shared/clock';
import type { Resources } from '../resources';

/** The erasure's field naming the subject in a domain's events (DomainErasure.subjectField). */
const subjectField = (domain: string): string => {
  const e = domainModule(domain).erasure;
  if (!e) throw new TypeError(`domain ${domain} has no erasure`);
  return e.subjectField;
};

export function sharedErasureStores(r: Resources, clock: Clock): StoreErasure[] {
  const s = r.settings;
  return [
    kafkaErasure({
      kafka: r.kafka,
      topics: { events: (d) => topicOf(r.topics, d), deadLetter: r.topics.deadLetter },
      subjectField,
      clock,
      segmentMs: s.kafkaCompactionSegmentMs,
      groupPrefix: `${s.kafkaTopicPrefix}.erasure`,
    }),
    clickhouseErasure({
      ch: r.clickhouse,
      database: s.clickhouseDatabase,
      layout: clickhouseLayout(s),
      guard: { refreshMs: s.erasureGuardRefreshMs },
      projections: (d) => erasableProjection(d, subjectField(d)),
      clock,
    }),
    ledgerErasure({ pg: r.pg, key: erasureKey(s), clock }),
  ];
}
