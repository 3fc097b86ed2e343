// OrderPlaced -> one orders row. Pure, with the same rules as the fitness decoder: the event's own
// version, exact decimals (the table's money scale), times ClickHouse can hold, and an envelope that
// agrees with its data. Items become parallel arrays in the row.
import { canonicalDecimal } from '../../../shared/decimal';
import { isoToMs } from '../../contract/clickHouseTime';
import { rejected } from '../../contract/decoded';
import { eventDecoder } from '../../contract/eventDecoder';
import { decimalScale } from '../../contract/projectionColumns';
import { ORDER_EVENT_CONTRACT, type OrderEventSchema } from '../eventContract';
import { ORDERS, type OrderItemRow, type OrderRow } from './ordersTable';

const MONEY = decimalScale(ORDERS, 'total');
const PRICE = decimalScale(ORDERS, 'unitPrice');

/** The order decoder: a JSON value in, its orders row or the first thing wrong out. */
export const orderDecoder = eventDecoder<OrderEventSchema, OrderRow>({
  contract: ORDER_EVENT_CONTRACT,
  row(e, d, at, ingestedAtMs) {
    const total = canonicalDecimal(d.total, MONEY);
    if (total === undefined) return rejected('INVALID_DATA', `data.total (not a decimal with at most ${MONEY} fraction digits)`);
    const items: OrderItemRow[] = [];
    for (const [i, item] of d.items.entries()) {
      const unitPrice = canonicalDecimal(item.unitPrice, PRICE);
      if (unitPrice === undefined)
        return rejected('INVALID_DATA', `data.items.${i}.unitPrice (not a decimal with at most ${PRICE} fraction digits)`);
      items.push({ sku: item.sku, quantity: item.quantity, unitPrice });
    }
    const createdAtMs = isoToMs(d.createdAt);
    const sourceCommitMs = isoToMs(e.occurredAt);
    if (createdAtMs === undefined) return rejected('INVALID_DATA', 'data.createdAt (not an ISO-8601 time ClickHouse can store)');
    if (sourceCommitMs === undefined) return rejected('INVALID_ENVELOPE', 'occurredAt (not an ISO-8601 time ClickHouse can store)');
    if (d.orderId !== e.aggregateId) return rejected('INCONSISTENT_EVENT', 'aggregateId != data.orderId');
    return {
      ok: true,
      value: {
        orderId: d.orderId,
        customerId: d.customerId,
        currency: d.currency,
        total,
        itemCount: d.itemCount,
        items,
        version: e.version,
        isDeleted: e.isDeleted,
        createdAtMs,
        sourceCommitMs,
        ingestedAtMs,
        eventId: e.eventId,
        // Version 2 fields (a v1 event arrives upcast with nulls): null becomes the column's "unknown" ('').
        changedBy: d.changedBy ?? '',
        channel: d.channel ?? '',
        ...at,
      },
    };
  },
});
