// Exact decimals for the read path. Results and money travel as canonical strings ("2.310",
// "19.9000") and are never routed through floats: the projector validates and pads them before they
// reach ClickHouse, and the query side re-pads what ClickHouse prints (current releases drop trailing
// zeros, 18.16 keeps them) so clients always see the agreed representation.

const PLAIN = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * The canonical form of `text` with exactly `scale` fraction digits, or undefined when it is not a
 * plain decimal, has more fraction digits than `scale` (that would need rounding), or more integer
 * digits than `maxIntegerDigits` (Decimal(18, scale) holds 18 - scale).
 */
export function canonicalDecimal(text: string, scale: number, maxIntegerDigits = 18 - scale): string | undefined {
  const m = PLAIN.exec(text);
  if (!m) return undefined;
  const [, sign, intPart, frac = ''] = m;
  if (frac.length > scale || intPart!.length > maxIntegerDigits) return undefined;
  const padded = scale === 0 ? intPart! : `${intPart}.${frac.padEnd(scale, '0')}`;
  // "-0.000" is zero: one canonical spelling.
  return sign && /^[0.]+$/.test(padded) ? padded : `${sign}${padded}`;
}

/** Pads a decimal printed by ClickHouse to `scale` digits ("2.31" -> "2.310", "12" -> "12.000"). */
export function padDecimal(text: string, scale: number): string {
  const c = canonicalDecimal(text.trim(), scale, 40);
  if (c === undefined) throw new TypeError(`ClickHouse returned a malformed decimal (${text.slice(0, 40)})`);
  return c;
}

function toUnits(text: string, scale: number): bigint {
  const c = padDecimal(text, scale);
  return BigInt(c.replace('.', ''));
}

function fromUnits(units: bigint, scale: number): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return neg ? `-${body}` : body;
}

/** sum / count, exactly, rounded half away from zero to `scale` digits. */
export function averageDecimal(sum: string, count: number, scale: number): string {
  if (!Number.isSafeInteger(count) || count <= 0) throw new RangeError('average of an empty set');
  const units = toUnits(sum, scale);
  const n = BigInt(count);
  const neg = units < 0n;
  const abs = neg ? -units : units;
  let q = abs / n;
  if ((abs % n) * 2n >= n) q += 1n;
  return fromUnits(neg ? -q : q, scale);
}

/** A float quantile ClickHouse computed over exact values, printed at the values' scale. */
export function floatToDecimal(value: number, scale: number): string {
  if (!Number.isFinite(value)) throw new TypeError('not a finite number');
  return padDecimal(value.toFixed(scale), scale);
}
