// The latest state of each order, as a SELECT over orders: GROUP BY order_id with argMax(column,
// version) for every column, HAVING the latest row is not a tombstone. Same reasoning as
// latestFitness.ts: explicit latest-version choice, conditions only on immutable columns (order_id,
// customer_id, currency, created_at), prefixed aliases; the select list is derived from the table's
// spec (latestColumns.ts).
import { ORDERS } from '../projection/ordersTable';
import { ident } from '../../../infra/clickhouse/literal';
import { columnWithRole } from '../../contract/projectionColumns';
import { latestSelectList } from '../../contract/latestColumns';

const ORDER_LATEST_COLUMNS = latestSelectList(ORDERS);
const KEY = columnWithRole(ORDERS, 'key').name;

/** `where`: literal-formatted conditions on immutable columns (the caller's scope among them). */
export function latestOrdersSql(database: string, where: string[], tail = ''): string {
  return `SELECT ${ORDER_LATEST_COLUMNS}
    FROM ${ident(database)}.${ORDERS.name}
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    GROUP BY ${KEY}
    HAVING l_is_deleted = 0
    ${tail}`;
}

/** A row of the query as ClickHouse returns it (64-bit integers arrive quoted), by latestAlias(column). */
export type LatestOrderRow = Record<string, unknown>;
