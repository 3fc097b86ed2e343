// What the read models return: the latest non-deleted state of an aggregate, with the source commit
// time of that version (updatedAt) and when the projector ingested it. Decimals are canonical strings.
// Who wrote a version (changedBy) stays in the authoritative store: it is not in the events.
import type { FitnessResultState } from '../../domains/fitness/types';
import { padDecimal } from '../../shared/decimal';
import type { LatestFitnessRow } from './sql/latestFitness';
import type { LatestOrderRow } from './sql/latestOrders';

/** A result's latest state as read back from the projection (dataId as text, plus when it was ingested). */
export interface FitnessView extends Omit<FitnessResultState, 'dataId' | 'isDeleted' | 'changedBy'> {
  dataId: string;
  ingestedAt: Date;
}

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
}

export function toFitnessView(r: LatestFitnessRow): FitnessView {
  return {
    dataId: String(r.data_id),
    detectId: Number(r.l_detect_id),
    userId: Number(r.l_user_id),
    projectId: Number(r.l_project_id),
    schoolId: Number(r.l_school_id),
    grade: Number(r.l_grade),
    result: padDecimal(r.l_result, 3),
    unit: r.l_unit,
    version: Number(r.l_version),
    createdAt: new Date(Number(r.l_created_at_ms)),
    updatedAt: new Date(Number(r.l_source_commit_ms)),
    ingestedAt: new Date(Number(r.l_ingested_at_ms)),
    shard: Number(r.l_shard),
  };
}

export function toOrderView(r: LatestOrderRow): OrderView {
  return {
    orderId: r.order_id,
    customerId: r.l_customer_id,
    currency: r.l_currency,
    total: padDecimal(r.l_total, 4),
    itemCount: Number(r.l_item_count),
    items: r.l_item_skus.map((sku, i) => ({
      sku,
      quantity: Number(r.l_item_quantities[i]),
      unitPrice: padDecimal(r.l_item_unit_prices[i] ?? '0', 4),
    })),
    version: Number(r.l_version),
    createdAt: new Date(Number(r.l_created_at_ms)),
    updatedAt: new Date(Number(r.l_source_commit_ms)),
    ingestedAt: new Date(Number(r.l_ingested_at_ms)),
  };
}
