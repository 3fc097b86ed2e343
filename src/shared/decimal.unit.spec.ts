import { averageDecimal, canonicalDecimal, floatToDecimal, formatDecimal, padDecimal, parseDecimal } from './decimal';

describe('exact decimals on the read path', () => {
  it('canonicalises to the agreed scale without rounding', () => {
    expect(canonicalDecimal('2.31', 3)).toBe('2.310');
    expect(canonicalDecimal('2.310', 3)).toBe('2.310');
    expect(canonicalDecimal('2', 3)).toBe('2.000');
    expect(canonicalDecimal('19.9', 4)).toBe('19.9000');
    expect(canonicalDecimal('-0.0', 3)).toBe('0.000');
    expect(canonicalDecimal('-1.5', 3)).toBe('-1.500');
  });

  it('rejects what would need rounding, overflow or is not plain notation', () => {
    for (const bad of ['2.3101', '1e3', '02.1', '.5', '2.', '', ' 2', '2,31', 'NaN', '1234567890123456.0'])
      expect(canonicalDecimal(bad, 3)).toBeUndefined();
    expect(canonicalDecimal('123456789012345.999', 3)).toBe('123456789012345.999');
  });

  it('pads what ClickHouse prints, whatever its version', () => {
    expect(padDecimal('2.31', 3)).toBe('2.310');
    expect(padDecimal('2.310', 3)).toBe('2.310');
    expect(padDecimal('12', 4)).toBe('12.0000');
    expect(() => padDecimal('abc', 3)).toThrow(TypeError);
  });

  it('averages exactly, rounding half away from zero', () => {
    expect(averageDecimal('4.620', 2, 3)).toBe('2.310');
    expect(averageDecimal('1.000', 3, 3)).toBe('0.333');
    expect(averageDecimal('2.000', 3, 3)).toBe('0.667');
    expect(averageDecimal('0.001', 2, 3)).toBe('0.001');
    expect(averageDecimal('-0.001', 2, 3)).toBe('-0.001');
    expect(averageDecimal('99999999999999999999.0000', 1, 4)).toBe('99999999999999999999.0000');
    expect(() => averageDecimal('1', 0, 3)).toThrow(RangeError);
  });

  it('prints float quantiles of exact values at their scale', () => {
    expect(floatToDecimal(2.31, 3)).toBe('2.310');
    expect(floatToDecimal(0.1 + 0.2, 3)).toBe('0.300');
  });
});

describe('parseDecimal and formatDecimal (the one parser under money, results and the read path)', () => {
  it('reads plain text into units of the scale and prints them back canonically', () => {
    expect(parseDecimal('19.9', 4)).toEqual({ ok: true, units: 199000n, negative: false, integerDigits: 2 });
    expect(parseDecimal('-0.5', 3)).toEqual({ ok: true, units: -500n, negative: true, integerDigits: 0 });
    expect(formatDecimal(199000n, 4)).toBe('19.9000');
    expect(formatDecimal(-500n, 3)).toBe('-0.500');
    expect(formatDecimal(7n, 0)).toBe('7');
  });

  it('refuses what its syntax does not allow, with the reason', () => {
    expect(parseDecimal('007.5', 3)).toEqual({ ok: false, problem: 'format' });
    expect(parseDecimal('007.5', 3, { leadingZeros: true })).toMatchObject({ ok: true, units: 7500n, integerDigits: 1 });
    expect(parseDecimal('2.3100', 3)).toEqual({ ok: false, problem: 'scale' });
    expect(parseDecimal('2.3100', 3, { extraZeros: true })).toMatchObject({ ok: true, units: 2310n });
    expect(parseDecimal('2.3101', 3, { extraZeros: true })).toEqual({ ok: false, problem: 'scale' });
    for (const bad of ['', '1e3', '.5', '5.', '+1', ' 1', '0x10', '1,5'])
      expect(parseDecimal(bad, 3, { leadingZeros: true })).toEqual({ ok: false, problem: 'format' });
  });
});
