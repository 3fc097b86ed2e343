// The orders domain's vocabulary: the command a client sends, the order it becomes, and the typed
// validation error every rejected command raises (nothing is written for a rejected command).
import { ValidationError } from '../../shared/errors';

export interface OrderLineInput {
  sku: string;
  quantity: number;
  /** Plain decimal notation; canonicalised to exactly 4 decimals. */
  unitPrice: string;
}

export interface PlaceOrderCommand {
  /**
   * Whose order it is. A customer may omit it (its token's customer_id is used) or name only itself;
   * operators and services, which place for anyone, must give it.
   */
  customerId?: string | null;
  currency: string;
  /** Chosen by the client, unique per caller: a retry by the same principal with the same key and content returns the first order. */
  idempotencyKey: string;
  items: OrderLineInput[];
  /** The sales channel, lower case as the event carries it ('web' | 'mobile' | 'store' | 'api'); omitted: not said. */
  channel?: string | null;
}

export interface OrderLine {
  sku: string;
  quantity: number;
  /** Canonical, exactly 4 decimals, e.g. "19.9000". */
  unitPrice: string;
}

export interface Order {
  orderId: string;
  customerId: string;
  currency: string;
  items: OrderLine[];
  /** Sum of quantity x unitPrice, exact, canonical with 4 decimals. */
  total: string;
  /** Number of units ordered: the sum of the line quantities. */
  itemCount: number;
  createdAt: Date;
  /** Token subject that placed the order; null for orders placed before it was recorded. In the event from schema version 2. */
  changedBy: string | null;
  /** The sales channel the client named (event schema version 2); absent or null: not said. */
  channel?: string | null;
}

export interface OrderLimits {
  maxItems: number;
}

/** Hard bounds that keep every amount exact in NUMERIC(24,4) and in a ClickHouse Decimal(18,4). */
export const ORDER_BOUNDS = {
  maxCustomerIdLength: 64,
  maxSkuLength: 64,
  maxIdempotencyKeyLength: 128,
  maxQuantity: 100_000,
  /** 999,999,999.9999 */
  maxUnitPriceUnits: 9_999_999_999_999n,
  /** Totals stay below 10^14 (Decimal(18,4) holds 14 integer digits). */
  maxTotalUnits: 10n ** 18n - 1n,
} as const;

export type OrderRejection =
  | 'EMPTY_ITEMS'
  | 'TOO_MANY_ITEMS'
  | 'NON_POSITIVE_QUANTITY'
  | 'NEGATIVE_PRICE'
  | 'UNKNOWN_CURRENCY'
  | 'TOO_LARGE'
  | 'TOO_MANY_DECIMALS'
  | 'INVALID_FORMAT'
  | 'REQUIRED';

export class OrderValidationError extends ValidationError {
  constructor(
    field: string,
    readonly reason: OrderRejection,
    message: string,
  ) {
    super(field, message, { reason });
    this.name = 'OrderValidationError';
  }
}
