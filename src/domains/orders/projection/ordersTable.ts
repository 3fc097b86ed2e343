// The orders projection table, written once: its row (what the decoder produces and the projector
// writes) and its columns in the migration's order (migrations/clickhouse/003). Line items are
// parallel arrays (sku, quantity, unit price) that make up the one `items` field; every other column
// list, decimal scale and field-to-column map of this table is derived from this spec
// (src/domains/contract/projectionColumns.ts).
import type { ProjectionRowBase } from '../../contract/decoded';
import { array, changedByColumn, dateTime, decimal, string, uint, type ProjectionTable } from '../../contract/projectionTable';
import { MONEY_SCALE } from '../decimal';

export interface OrderItemRow {
  sku: string;
  quantity: number;
  /** Canonical, exactly MONEY_SCALE decimals. */
  unitPrice: string;
}

export interface OrderRow extends ProjectionRowBase {
  orderId: string;
  customerId: string;
  currency: string;
  /** Canonical, exactly MONEY_SCALE decimals. */
  total: string;
  itemCount: number;
  items: OrderItemRow[];
  /** Event schema version 2: the token subject that placed the order; '' = unknown (a v1 event). */
  changedBy: string;
  /** Event schema version 2: 'web' | 'mobile' | 'store' | 'api'; '' = unknown (a v1 event, or the client did not say). */
  channel: string;
}

export const ORDERS: ProjectionTable<OrderRow> = {
  name: 'orders',
  columns: [
    { name: 'order_id', type: string, role: 'key', field: 'orderId', value: (r) => r.orderId },
    { name: 'customer_id', type: string, role: 'content', field: 'customerId', compared: true, value: (r) => r.customerId },
    { name: 'currency', type: string, role: 'content', field: 'currency', compared: true, value: (r) => r.currency },
    { name: 'total', type: decimal(MONEY_SCALE), role: 'content', field: 'total', compared: true, value: (r) => r.total },
    { name: 'item_count', type: uint(32), role: 'content', field: 'itemCount', compared: true, value: (r) => r.itemCount },
    {
      name: 'item_skus',
      type: array(string),
      role: 'content',
      field: 'sku',
      list: 'items',
      compared: true,
      value: (r) => r.items.map((i) => i.sku),
    },
    {
      name: 'item_quantities',
      type: array(uint(32)),
      role: 'content',
      field: 'quantity',
      list: 'items',
      compared: true,
      value: (r) => r.items.map((i) => i.quantity),
    },
    {
      name: 'item_unit_prices',
      type: array(decimal(MONEY_SCALE)),
      role: 'content',
      field: 'unitPrice',
      list: 'items',
      compared: true,
      value: (r) => r.items.map((i) => i.unitPrice),
    },
    { name: 'version', type: uint(64), role: 'version', field: 'version', value: (r) => r.version },
    { name: 'is_deleted', type: uint(8), role: 'isDeleted', field: 'isDeleted', value: (r) => (r.isDeleted ? 1 : 0) },
    { name: 'created_at', type: dateTime, role: 'time', value: (r) => r.createdAtMs },
    { name: 'created_at_ms', type: uint(64), role: 'time', field: 'createdAt', compared: true, value: (r) => r.createdAtMs },
    { name: 'source_commit_at', type: dateTime, role: 'time', value: (r) => r.sourceCommitMs },
    { name: 'source_commit_ms', type: uint(64), role: 'time', field: 'updatedAt', value: (r) => r.sourceCommitMs },
    { name: 'ingested_at', type: dateTime, role: 'time', value: (r) => r.ingestedAtMs },
    { name: 'ingested_at_ms', type: uint(64), role: 'time', field: 'ingestedAt', value: (r) => r.ingestedAtMs },
    { name: 'event_id', type: string, role: 'provenance', value: (r) => r.eventId },
    { name: 'kafka_partition', type: uint(32), role: 'provenance', value: (r) => r.kafkaPartition },
    { name: 'kafka_offset', type: uint(64), role: 'provenance', value: (r) => r.kafkaOffset },
    // Event schema version 2 (migrations/clickhouse/007). Not compared: a reconciliation digest compares the
    // business content every schema version carries, so a row projected from a v1 event (these unknown)
    // must not differ from its source: canonical digests ignore the representation version.
    changedByColumn(),
    { name: 'channel', type: string, role: 'content', field: 'channel', compared: false, emptyIsUnknown: true, value: (r) => r.channel },
  ],
  segment: 'toString(toDate(created_at))',
};
