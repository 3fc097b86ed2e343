// The orders domain's projection as one value: the orders table, fed by the orders topic.
import type { Projection } from '../../contract/projection';
import { orderDecoder } from './orderDecoder';
import { ORDERS, type OrderRow } from './ordersTable';

export const ordersProjection: Projection<OrderRow> = {
  domain: 'orders',
  table: ORDERS,
  decoder: orderDecoder,
};
