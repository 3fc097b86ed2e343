// INSERT INTO orders: one statement per flush with every order row of the flush, all columns written
// explicitly (18.16 ignores DEFAULTs). Decimals (total, unit prices) go in number position as their
// validated canonical text. No locking: append-only; repeats collapse by version.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { canonicalDecimal } from '../../shared/decimal';
import type { OrderRow } from '../rows';
import { clickHouseDateTime } from '../time';
import { insertJsonEachRow, jsonLine, uint64Text } from './insertJsonEachRow';

function money(text: string): string {
  const c = canonicalDecimal(text, 4);
  if (c === undefined) throw new TypeError('order amount is not a canonical decimal');
  return c;
}

export function orderLine(r: OrderRow): string {
  return jsonLine(
    {
      order_id: r.orderId,
      customer_id: r.customerId,
      currency: r.currency,
      item_count: r.itemCount,
      item_skus: r.items.map((i) => i.sku),
      item_quantities: r.items.map((i) => i.quantity),
      version: r.version,
      is_deleted: r.isDeleted ? 1 : 0,
      created_at: clickHouseDateTime(r.createdAtMs),
      created_at_ms: r.createdAtMs,
      source_commit_at: clickHouseDateTime(r.sourceCommitMs),
      source_commit_ms: r.sourceCommitMs,
      ingested_at: clickHouseDateTime(r.ingestedAtMs),
      ingested_at_ms: r.ingestedAtMs,
      event_id: r.eventId,
      kafka_partition: r.kafkaPartition,
    },
    {
      kafka_offset: uint64Text(r.kafkaOffset),
      total: money(r.total),
      item_unit_prices: `[${r.items.map((i) => money(i.unitPrice)).join(',')}]`,
    },
  );
}

export function insertOrders(ch: ClickHouseClient, database: string, rows: OrderRow[]): Promise<void> {
  return insertJsonEachRow(ch, database, 'orders', rows.map(orderLine));
}
