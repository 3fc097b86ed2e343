// Exact decimals for fitness results. Results are DECIMAL(10,3) in MySQL and travel as canonical
// strings with exactly 3 decimals ("2.310"); arithmetic and comparisons use integer thousandths
// (bigint), never floats, so 2.31 and 2.310 are the same value and 0.1 + 0.2 is not a question.

export const RESULT_SCALE = 3;
/** DECIMAL(10,3): at most 7 integer digits. */
const MAX_INTEGER_DIGITS = 7;

export type DecimalProblem = 'format' | 'negative' | 'scale' | 'too-large';

export type ParsedDecimal = { ok: true; thousandths: bigint; canonical: string } | { ok: false; problem: DecimalProblem };

/** Parses a plain decimal string ("2.31", "231", "0.5") into thousandths and its canonical text. */
export function parseResult(text: string): ParsedDecimal {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return { ok: false, problem: 'format' };
  const [, sign, intPart = '', frac = ''] = m;
  const intDigits = intPart.replace(/^0+(?=\d)/, '');
  const fracTrimmed = frac.replace(/0+$/, '');
  if (fracTrimmed.length > RESULT_SCALE) return { ok: false, problem: 'scale' };
  if (intDigits.length > MAX_INTEGER_DIGITS) return { ok: false, problem: 'too-large' };
  const thousandths = BigInt(intDigits) * 1000n + BigInt(fracTrimmed.padEnd(RESULT_SCALE, '0'));
  if (sign === '-' && thousandths !== 0n) return { ok: false, problem: 'negative' };
  return { ok: true, thousandths, canonical: formatThousandths(thousandths) };
}

export function formatThousandths(v: bigint): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const s = `${abs / 1000n}.${(abs % 1000n).toString().padStart(RESULT_SCALE, '0')}`;
  return neg ? `-${s}` : s;
}

/** Canonical form of a value that is already known to be valid (e.g. read back from DECIMAL(10,3)). */
export function canonicalResult(text: string): string {
  const p = parseResult(text);
  if (!p.ok) throw new TypeError(`not a canonical result: ${text.slice(0, 20)}`);
  return p.canonical;
}
