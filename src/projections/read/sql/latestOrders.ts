// The latest state of each order, as a SELECT over orders: GROUP BY order_id with argMax(column,
// version) for every column, HAVING the latest row is not a tombstone. Same reasoning as
// latestFitness.ts: explicit latest-version choice, conditions only on immutable columns (order_id,
// customer_id, currency, created_at), prefixed aliases.
import { ident } from '../../../infra/clickhouse/literal';

export const ORDER_LATEST_COLUMNS = `
  order_id,
  argMax(customer_id, version) AS l_customer_id,
  argMax(currency, version) AS l_currency,
  toString(argMax(total, version)) AS l_total,
  argMax(item_count, version) AS l_item_count,
  argMax(item_skus, version) AS l_item_skus,
  argMax(item_quantities, version) AS l_item_quantities,
  arrayMap(p -> toString(p), argMax(item_unit_prices, version)) AS l_item_unit_prices,
  max(version) AS l_version,
  argMax(is_deleted, version) AS l_is_deleted,
  argMax(created_at_ms, version) AS l_created_at_ms,
  argMax(source_commit_ms, version) AS l_source_commit_ms,
  argMax(ingested_at_ms, version) AS l_ingested_at_ms`;

/** `where`: literal-formatted conditions on immutable columns (the caller's scope among them). */
export function latestOrdersSql(database: string, where: string[], tail = ''): string {
  return `SELECT ${ORDER_LATEST_COLUMNS}
    FROM ${ident(database)}.orders
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    GROUP BY order_id
    HAVING l_is_deleted = 0
    ${tail}`;
}

export interface LatestOrderRow {
  order_id: string;
  l_customer_id: string;
  l_currency: string;
  l_total: string;
  l_item_count: number | string;
  l_item_skus: string[];
  l_item_quantities: (number | string)[];
  l_item_unit_prices: string[];
  l_version: string;
  l_created_at_ms: string;
  l_source_commit_ms: string;
  l_ingested_at_ms: string;
}
