// Fitness results over the one decimal module (src/shared/decimal.ts): DECIMAL(10,3) in MySQL,
// canonical text with exactly 3 decimals ("2.310") on the wire; arithmetic and comparisons use integer
// thousandths (bigint), never floats, so 2.31 and 2.310 are the same value.
import { formatDecimal, parseDecimal } from '../../shared/decimal';

export const RESULT_SCALE = 3;
/** DECIMAL(10,3): at most 7 integer digits. */
const MAX_INTEGER_DIGITS = 7;

export type DecimalProblem = 'format' | 'negative' | 'scale' | 'too-large';

export type ParsedDecimal = { ok: true; thousandths: bigint; canonical: string } | { ok: false; problem: DecimalProblem };

/** Parses a plain decimal string ("2.31", "231", "0.5", "007.5") into thousandths and its canonical text. */
export function parseResult(text: string): ParsedDecimal {
  const p = parseDecimal(text, RESULT_SCALE, { leadingZeros: true, extraZeros: true });
  if (!p.ok) return p;
  if (p.integerDigits > MAX_INTEGER_DIGITS) return { ok: false, problem: 'too-large' };
  if (p.units < 0n) return { ok: false, problem: 'negative' };
  // "-0" is zero.
  return { ok: true, thousandths: p.units, canonical: formatDecimal(p.units, RESULT_SCALE) };
}

/** Canonical form of a value that is already known to be valid (e.g. read back from DECIMAL(10,3)). */
export function canonicalResult(text: string): string {
  const p = parseResult(text);
  if (!p.ok) throw new TypeError(`not a canonical result: ${text.slice(0, 20)}`);
  return p.canonical;
}
