// The authoritative orders of a time window, as one derived table `r` (PostgreSQL). Orders are
// immutable and never deleted: every order is version 1 and live. Values are bound (`?`); the
// canonical line is generated from the agreed field list, the line items from the jsonb array in
// their stored order.
import type { FieldSpec } from '../../../contract/canonical';
import { canonicalFieldsOf, listItems, type CompareLevel } from '../../../contract/canonicalFields';
import { ORDERS } from '../../projection/ordersTable';
import { lineSql, postgresCells } from '../../../contract/sqlCells';
import type { StateFilter } from '../../../contract/sourceReader';
import type { OrderWindowScope } from '../windowScope';

export interface Sql {
  sql: string;
  bindings: (string | number | Date | string[] | number[])[];
}

const GS = 0x1d;
const RS = 0x1e;

function itemsSql(): string {
  const col: Record<string, string> = { sku: "t.e->>'sku'", quantity: "t.e->>'quantity'", unitPrice: "t.e->>'unitPrice'" };
  const cells = listItems(ORDERS, 'items').map((f) => postgresCells.cell(f.type, col[f.name]!));
  return `COALESCE((SELECT string_agg(concat_ws(chr(${GS}), ${cells.join(', ')}), chr(${RS}) ORDER BY t.ord)
                      FROM jsonb_array_elements(r.items) WITH ORDINALITY AS t(e, ord)), '')`;
}

const COLUMN_OF: Record<string, string> = {
  orderId: 'r.order_id',
  version: '1',
  isDeleted: 'false',
  customerId: 'r.customer_id',
  currency: 'r.currency',
  total: 'r.total',
  itemCount: 'r.item_count',
  createdAt: 'r.created_at',
};

function columnOf(f: FieldSpec): string {
  if (f.name === 'items') return itemsSql();
  const c = COLUMN_OF[f.name];
  if (!c) throw new TypeError(`no orders source column for ${f.name}`);
  return c;
}

export function orderLineSql(level: CompareLevel): string {
  return lineSql(postgresCells, canonicalFieldsOf(ORDERS, level), columnOf);
}

export const BUCKET_OF_R = (buckets: number) => postgresCells.bucket('r.order_id::text', buckets);

/** `(SELECT ... FROM orders WHERE created_at in [from, to) ...) r` */
export function scopeRows(scope: OrderWindowScope, filter: StateFilter = {}): Sql {
  const bindings: Sql['bindings'] = [scope.from, scope.to];
  let extra = '';
  if (filter.ids) {
    extra += ' AND order_id::text = ANY(?::text[])';
    bindings.push(filter.ids);
  }
  if (filter.buckets) {
    extra += ` AND ${postgresCells.bucket('order_id::text', filter.buckets.count)} = ANY(?::int[])`;
    bindings.push(filter.buckets.ids);
  }
  return {
    sql: `(SELECT order_id, customer_id, currency, items, total, item_count, created_at FROM orders WHERE created_at >= ? AND created_at < ?${extra}) r`,
    bindings,
  };
}
