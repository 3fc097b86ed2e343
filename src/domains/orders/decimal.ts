// Money for orders: amounts are bigint counts of 1/10,000 (scale 4) over the one decimal module
// (src/shared/decimal.ts), printed as canonical text ("19.9" -> 199000n -> "19.9000"). No float ever
// touches a price, so 0.1 + 0.2 is 0.3000 and totals are exact.
import { formatDecimal, parseDecimal } from '../../shared/decimal';

export const MONEY_SCALE = 4;

export type ParsedMoney = { ok: true; units: bigint } | { ok: false; reason: 'format' | 'scale' };

/** Parses plain decimal notation; more than 4 decimals is accepted only when the extra digits are zeros. */
export function parseMoney(text: string): ParsedMoney {
  const p = parseDecimal(text.trim(), MONEY_SCALE, { extraZeros: true });
  return p.ok ? { ok: true, units: p.units } : { ok: false, reason: p.problem };
}

/** The canonical text of an amount: exactly 4 decimals, no exponent, "-" only for negatives. */
export function formatMoney(units: bigint): string {
  return formatDecimal(units, MONEY_SCALE);
}
