// Exact money arithmetic for orders: amounts are bigint counts of 1/10,000 (scale 4), parsed from and
// printed as canonical decimal strings ("19.9" -> 199000n -> "19.9000"). No float ever touches a
// price, so 0.1 + 0.2 is 0.3000 and totals are exact.

export const MONEY_SCALE = 4;
const FACTOR = 10n ** BigInt(MONEY_SCALE);
const PLAIN = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export type ParsedMoney = { ok: true; units: bigint } | { ok: false; reason: 'format' | 'scale' };

/** Parses plain decimal notation; more than 4 decimals is accepted only when the extra digits are zeros. */
export function parseMoney(text: string): ParsedMoney {
  const m = PLAIN.exec(text.trim());
  if (!m) return { ok: false, reason: 'format' };
  const [, sign, whole, frac = ''] = m;
  const significant = frac.replace(/0+$/, '');
  if (significant.length > MONEY_SCALE) return { ok: false, reason: 'scale' };
  const units = BigInt(whole!) * FACTOR + BigInt(significant.padEnd(MONEY_SCALE, '0') || '0');
  return { ok: true, units: sign === '-' ? -units : units };
}

/** The canonical text of an amount: exactly 4 decimals, no exponent, "-" only for negatives. */
export function formatMoney(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const whole = abs / FACTOR;
  const frac = (abs % FACTOR).toString().padStart(MONEY_SCALE, '0');
  return `${neg ? '-' : ''}${whole}.${frac}`;
}
