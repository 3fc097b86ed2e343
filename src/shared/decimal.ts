// Exact decimals, the one module for every value that must never pass through a float: fitness
// results (scale 3), money (scale 4) and the read path's padding and averages. A value is a bigint
// count of 10^-scale units, parsed from and printed as plain decimal text ("2.31" at scale 3 ->
// 2310n -> "2.310"); no exponent, no float, so 0.1 + 0.2 is 0.3 and 2.31 equals 2.310.

export interface DecimalSyntax {
  /** "007.5": the fitness API has always accepted them; canonical text never has them. */
  leadingZeros?: boolean;
  /** "2.3100" at scale 3: the extra digits must be zeros, which say nothing. Else more digits than scale is `scale`. */
  extraZeros?: boolean;
}

export type DecimalParse =
  { ok: true; units: bigint; negative: boolean; integerDigits: number } | { ok: false; problem: 'format' | 'scale' };

const STRICT = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const LENIENT = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/** Parses plain decimal text into units of 10^-scale; `integerDigits` counts the significant ones. */
export function parseDecimal(text: string, scale: number, syntax: DecimalSyntax = {}): DecimalParse {
  const m = (syntax.leadingZeros ? LENIENT : STRICT).exec(text);
  if (!m) return { ok: false, problem: 'format' };
  const [, sign, whole = '', frac = ''] = m;
  const digits = syntax.extraZeros ? frac.replace(/0+$/, '') : frac;
  if (digits.length > scale) return { ok: false, problem: 'scale' };
  const integer = whole.replace(/^0+(?=[0-9])/, '');
  const magnitude = BigInt(integer) * 10n ** BigInt(scale) + BigInt(digits.padEnd(scale, '0') || '0');
  return { ok: true, units: sign ? -magnitude : magnitude, negative: sign === '-', integerDigits: integer === '0' ? 0 : integer.length };
}

/** The canonical text of `units`: exactly `scale` fraction digits, "-" only below zero. */
export function formatDecimal(units: bigint, scale: number): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return neg ? `-${body}` : body;
}

/**
 * The canonical form of `text` with exactly `scale` fraction digits, or undefined when it is not a
 * plain decimal, has more fraction digits than `scale` (that would need rounding), or more integer
 * digits than `maxIntegerDigits` (Decimal(18, scale) holds 18 - scale).
 */
export function canonicalDecimal(text: string, scale: number, maxIntegerDigits = 18 - scale): string | undefined {
  const p = parseDecimal(text, scale);
  if (!p.ok || p.integerDigits > maxIntegerDigits) return undefined;
  return formatDecimal(p.units, scale);
}

/** Pads a decimal printed by ClickHouse to `scale` digits ("2.31" -> "2.310", "12" -> "12.000"). */
export function padDecimal(text: string, scale: number): string {
  const c = canonicalDecimal(text.trim(), scale, 40);
  if (c === undefined) throw new TypeError(`ClickHouse returned a malformed decimal (${text.slice(0, 40)})`);
  return c;
}

/** sum / count, exactly, rounded half away from zero to `scale` digits. */
export function averageDecimal(sum: string, count: number, scale: number): string {
  if (!Number.isSafeInteger(count) || count <= 0) throw new RangeError('average of an empty set');
  const units = BigInt(padDecimal(sum, scale).replace('.', ''));
  const n = BigInt(count);
  const neg = units < 0n;
  const abs = neg ? -units : units;
  let q = abs / n;
  if ((abs % n) * 2n >= n) q += 1n;
  return formatDecimal(neg ? -q : q, scale);
}

/** A float quantile ClickHouse computed over exact values, printed at the values' scale. */
export function floatToDecimal(value: number, scale: number): string {
  if (!Number.isFinite(value)) throw new TypeError('not a finite number');
  return padDecimal(value.toFixed(scale), scale);
}
