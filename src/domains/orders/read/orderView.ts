// An order as the read model returns it: the latest non-deleted version read back from orders, mapped
// by the table's spec (contract/latestView.ts). Kept with the domain so the GraphQL layer and the read
// service share one shape.
import { viewOf } from '../../contract/latestView';
import type { OrderChannel } from '../eventContract';
import { ORDERS } from '../projection/ordersTable';
import type { LatestOrderRow } from './latestOrders';

export interface OrderViewLine {
  sku: string;
  quantity: number;
  unitPrice: string;
}

export interface OrderView {
  orderId: string;
  customerId: string;
  currency: string;
  total: string;
  itemCount: number;
  items: OrderViewLine[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
  ingestedAt: Date;
  /** Who placed it; null when unknown (projected from a schema version 1 event). */
  changedBy: string | null;
  /** null when not said or unknown (the decoder writes only the contract's channels). */
  channel: OrderChannel | null;
}

export const toOrderView = (r: LatestOrderRow): OrderView => viewOf(ORDERS, r) as unknown as OrderView;
