// Pure decision for placing an order: validate the command, canonicalise every amount, compute the
// exact total, and fingerprint the request for idempotency. Time and the order id are passed in, so the
// same inputs always give the same order (unit-tested without any I/O). Whose order it is and who
// places it are settled by the service from the caller's principal (./placingCustomer.ts) and come
// in resolved: the command's customerId is the one to validate, changedBy the placing subject.
import { createHash } from 'node:crypto';
import { hasControlCharacters } from '../../shared/controlCharacters';
import { isKnownCurrency } from './currencies';
import { ORDER_CHANNELS, type OrderChannel } from './eventContract';
import { formatMoney, parseMoney } from './decimal';
import { ORDER_BOUNDS, OrderValidationError, type Order, type OrderLimits, type OrderLine, type PlaceOrderCommand } from './order';

export interface PlaceOrderDecision {
  order: Order;
  /** sha256 of the canonical command (idempotency key excluded): tells a retry from a different request. */
  requestHash: string;
}

function requireText(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw new OrderValidationError(field, 'REQUIRED', `${field} is required`);
  if (value.length > max) throw new OrderValidationError(field, 'TOO_LARGE', `${field} is longer than ${max} characters`);
  // Ids end up in logs, Kafka keys and operator views: no control characters (the shared rule).
  if (hasControlCharacters(value)) throw new OrderValidationError(field, 'INVALID_FORMAT', `${field} contains control characters`);
  return value;
}

function line(i: number, item: PlaceOrderCommand['items'][number]): { line: OrderLine; amount: bigint } {
  const at = `items[${i}]`;
  const sku = requireText(`${at}.sku`, item.sku, ORDER_BOUNDS.maxSkuLength);
  if (!Number.isSafeInteger(item.quantity) || item.quantity <= 0)
    throw new OrderValidationError(`${at}.quantity`, 'NON_POSITIVE_QUANTITY', 'quantity must be a positive whole number');
  if (item.quantity > ORDER_BOUNDS.maxQuantity)
    throw new OrderValidationError(`${at}.quantity`, 'TOO_LARGE', `quantity must be at most ${ORDER_BOUNDS.maxQuantity}`);
  const price = parseMoney(typeof item.unitPrice === 'string' ? item.unitPrice : '');
  if (!price.ok)
    throw price.reason === 'scale'
      ? new OrderValidationError(`${at}.unitPrice`, 'TOO_MANY_DECIMALS', 'unitPrice has more than 4 decimal places')
      : new OrderValidationError(`${at}.unitPrice`, 'INVALID_FORMAT', 'unitPrice must be a plain decimal, e.g. "19.90"');
  if (price.units < 0n) throw new OrderValidationError(`${at}.unitPrice`, 'NEGATIVE_PRICE', 'unitPrice must not be negative');
  if (price.units > ORDER_BOUNDS.maxUnitPriceUnits)
    throw new OrderValidationError(`${at}.unitPrice`, 'TOO_LARGE', 'unitPrice is too large');
  return { line: { sku, quantity: item.quantity, unitPrice: formatMoney(price.units) }, amount: price.units * BigInt(item.quantity) };
}

/** The channel as the event carries it (lower case, one of ORDER_CHANNELS), or null when not said. */
function channelOf(value: unknown): OrderChannel | null {
  if (value === undefined || value === null) return null;
  const c = ORDER_CHANNELS.find((x) => x === value);
  if (!c) throw new OrderValidationError('channel', 'INVALID_FORMAT', `channel must be one of ${ORDER_CHANNELS.join(', ')}`);
  return c;
}

/** Validates and canonicalises a command; throws OrderValidationError (nothing is written) on bad input. */
export function decidePlaceOrder(
  cmd: PlaceOrderCommand,
  ctx: { orderId: string; now: Date; limits: OrderLimits; changedBy: string },
): PlaceOrderDecision {
  const customerId = requireText('customerId', cmd.customerId, ORDER_BOUNDS.maxCustomerIdLength);
  requireText('idempotencyKey', cmd.idempotencyKey, ORDER_BOUNDS.maxIdempotencyKeyLength);
  if (typeof cmd.currency !== 'string' || !isKnownCurrency(cmd.currency))
    throw new OrderValidationError('currency', 'UNKNOWN_CURRENCY', 'currency must be an ISO 4217 code in upper case, e.g. "EUR"');
  if (!Array.isArray(cmd.items) || cmd.items.length === 0)
    throw new OrderValidationError('items', 'EMPTY_ITEMS', 'an order needs at least one item');
  if (cmd.items.length > ctx.limits.maxItems)
    throw new OrderValidationError('items', 'TOO_MANY_ITEMS', `an order may have at most ${ctx.limits.maxItems} items`);

  const channel = channelOf(cmd.channel);
  const lines = cmd.items.map((item, i) => line(i, item));
  const totalUnits = lines.reduce((sum, l) => sum + l.amount, 0n);
  if (totalUnits > ORDER_BOUNDS.maxTotalUnits) throw new OrderValidationError('items', 'TOO_LARGE', 'the order total is too large');
  const items = lines.map((l) => l.line);

  const order: Order = {
    orderId: ctx.orderId,
    customerId,
    currency: cmd.currency,
    items,
    total: formatMoney(totalUnits),
    itemCount: items.reduce((n, l) => n + l.quantity, 0),
    // Millisecond precision: the stored timestamptz(3) and the event's createdAt must be identical.
    createdAt: new Date(Math.floor(ctx.now.getTime())),
    changedBy: ctx.changedBy,
    channel,
  };
  // The channel joins the fingerprint only when given, so a key stored before channels existed still
  // matches its retry, and the same key with another channel is a different request (IDEMPOTENCY_CONFLICT).
  const canonical = JSON.stringify({ customerId, currency: cmd.currency, items, ...(channel === null ? {} : { channel }) });
  return { order, requestHash: createHash('sha256').update(canonical).digest('hex') };
}
