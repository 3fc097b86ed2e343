import { hostileStrings } from '../../../test/support/hostile';
import { bool, date, dateTime, decimal, ident, int, list, str, uint } from './literal';

describe('ClickHouse literal formatter', () => {
  it.each(hostileStrings)('quotes %j so it cannot end the literal', (s) => {
    const lit = str(s);
    expect(lit.startsWith("'") && lit.endsWith("'")).toBe(true);
    const inner = lit.slice(1, -1);
    // Every quote inside is escaped by an odd run of backslashes.
    for (const m of inner.matchAll(/(\\*)'/g)) expect(m[1]!.length % 2).toBe(1);
    expect(inner).not.toContain('\0');
    expect(inner).not.toContain('\n');
  });

  it('accepts only real unsigned integers', () => {
    expect(uint(0)).toBe('0');
    expect(uint('18446744073709551615')).toBe('18446744073709551615');
    expect(uint(12n)).toBe('12');
    for (const bad of [-1, 1.5, NaN, '1 OR 1=1', '01', '18446744073709551616', '1e3']) expect(() => uint(bad as never)).toThrow(TypeError);
  });

  it('accepts only signed 64-bit integers', () => {
    expect(int(-5)).toBe('-5');
    expect(() => int('9223372036854775808')).toThrow(TypeError);
    expect(() => int('1;')).toThrow(TypeError);
  });

  it('formats decimals exactly, never through floats', () => {
    expect(decimal('2.31', 3)).toBe("toDecimal64('2.31', 3)");
    for (const bad of ['2.31.1', '1e5', "2'", '', '-', '.5']) expect(() => decimal(bad, 3)).toThrow(TypeError);
  });

  it('formats dates, booleans, lists and identifiers', () => {
    expect(dateTime(new Date('2026-01-02T03:04:05.678Z'))).toBe("toDateTime('2026-01-02 03:04:05', 'UTC')");
    expect(date(new Date('2026-01-02T23:00:00Z'))).toBe("toDate('2026-01-02')");
    expect(() => dateTime(new Date('nope'))).toThrow(TypeError);
    expect(bool(true)).toBe('1');
    expect(list([1, 2], uint)).toBe('(1, 2)');
    expect(() => list([], uint)).toThrow(TypeError);
    expect(ident('fitness_results')).toBe('`fitness_results`');
    for (const bad of ['a`b', 'a b', '1abc', 'x;y', '']) expect(() => ident(bad)).toThrow(TypeError);
  });
});
