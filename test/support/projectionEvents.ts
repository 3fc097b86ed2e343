// Events exactly as the agreed contracts describe them (the write paths produce the same), for
// projector, query and benchmark code that feeds Kafka directly with a real producer.
import type { Producer } from 'kafkajs';
import { toKafkaRecord, type DomainEvent } from '../../src/publication/event';

export interface FitnessState {
  dataId: number;
  detectId: number;
  userId: number;
  projectId: number;
  schoolId: number;
  grade: number;
  result: string;
  unit?: string;
  version: number;
  isDeleted?: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export function fitnessEvent(s: FitnessState): DomainEvent {
  const isDeleted = s.isDeleted ?? false;
  const createdAt = s.createdAt ?? '2026-03-01T08:00:00.000Z';
  const updatedAt = s.updatedAt ?? new Date(Date.parse(createdAt) + (s.version - 1) * 60000).toISOString();
  return {
    eventId: `fitness-result-${s.dataId}-v${s.version}`,
    domain: 'fitness',
    type: isDeleted ? 'FitnessResultDeleted' : s.version === 1 ? 'FitnessResultRecorded' : 'FitnessResultCorrected',
    aggregateId: String(s.dataId),
    version: s.version,
    schemaVersion: 1,
    isDeleted,
    occurredAt: new Date(updatedAt),
    shard: s.dataId % 100,
    data: {
      dataId: s.dataId,
      detectId: s.detectId,
      userId: s.userId,
      projectId: s.projectId,
      schoolId: s.schoolId,
      grade: s.grade,
      result: s.result,
      unit: s.unit ?? 'm',
      version: s.version,
      isDeleted,
      createdAt,
      updatedAt,
    },
  };
}

export interface OrderState {
  orderId: string;
  customerId?: string;
  currency?: string;
  items?: { sku: string; quantity: number; unitPrice: string }[];
  total?: string;
  createdAt?: string;
}

export function orderEvent(s: OrderState): DomainEvent {
  const items = s.items ?? [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9000' }];
  const createdAt = s.createdAt ?? '2026-03-01T08:00:00.000Z';
  return {
    eventId: `order-placed:${s.orderId}:v1`,
    domain: 'orders',
    type: 'OrderPlaced',
    aggregateId: s.orderId,
    version: 1,
    schemaVersion: 1,
    isDeleted: false,
    occurredAt: new Date(createdAt),
    shard: 0,
    data: {
      orderId: s.orderId,
      customerId: s.customerId ?? 'customer-1',
      currency: s.currency ?? 'EUR',
      items,
      total: s.total ?? '39.8000',
      itemCount: items.reduce((n, i) => n + i.quantity, 0),
      createdAt,
    },
  };
}

/** Sends events with their exact wire format (toKafkaRecord), keyed by aggregate id, acks=all. */
export async function produceEvents(producer: Producer, topic: string, events: DomainEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 2000) {
    await producer.send({ topic, acks: -1, messages: events.slice(i, i + 2000).map((e) => toKafkaRecord(e)) });
  }
}
