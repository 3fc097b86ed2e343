import { appendSample } from './history';
import { clockTime, countBy, formatAge, formatLagMs, utcInputToIso } from './format';
import { fitnessChartRows, orderChartRows } from './reportRows';

describe('console formatting', () => {
  it('formats ages and lags for people', () => {
    expect([formatAge(0), formatAge(42.4), formatAge(185), formatAge(7440), formatAge(null)]).toEqual([
      '0 s',
      '42 s',
      '3 min 5 s',
      '2 h 4 min',
      'unknown',
    ]);
    expect([formatLagMs(12.6), formatLagMs(61000), formatLagMs(undefined)]).toEqual(['13 ms', '1 min 1 s', 'unknown']);
    expect(clockTime('2026-01-02T03:04:05.678Z')).toBe('03:04:05');
  });

  it('reads datetime-local and date inputs as UTC, and refuses anything else', () => {
    expect(utcInputToIso('2026-01-02T03:04')).toBe('2026-01-02T03:04:00.000Z');
    expect(utcInputToIso('2026-01-02')).toBe('2026-01-02T00:00:00.000Z');
    expect(utcInputToIso('')).toBeUndefined();
    expect(utcInputToIso('yesterday')).toBeUndefined();
    expect(utcInputToIso('2026-13-45')).toBeUndefined();
  });

  it('counts by key in a fixed order, zero included', () => {
    expect(countBy([{ k: 'B' }, { k: 'C' }, { k: 'B' }], (x) => x.k, ['A', 'B'])).toEqual([
      ['A', 0],
      ['B', 2],
      ['C', 1],
    ]);
  });

  it('keeps chart samples inside the window', () => {
    const s = appendSample(appendSample([{ t: 0, a: 1 }], { t: 1001, a: 2 }, 5000), { t: 6000, a: 3 }, 5000);
    expect(s.map((x) => x.t)).toEqual([1001, 6000]);
  });

  it('turns report groups into chart rows, naming units only when they are mixed and never mixing currencies', () => {
    const g = { count: 2, min: '1.000', p50: '1.500', p90: '2.000', max: '2.000', average: '1.500' };
    expect(fitnessChartRows([{ key: 7, unit: 'm', ...g }], 'SCHOOL')[0]).toEqual({
      label: 'school 7',
      count: 2,
      min: 1,
      p50: 1.5,
      p90: 2,
      max: 2,
      average: 1.5,
    });
    expect(
      fitnessChartRows(
        [
          { key: 5, unit: 'm', ...g },
          { key: 5, unit: 'cm', ...g },
        ],
        'GRADE',
      ).map((r) => r.label),
    ).toEqual(['grade 5 (m)', 'grade 5 (cm)']);
    const o = { orderCount: 1, itemCount: 2, total: '10.5000', averageTotal: '10.5000' };
    expect(
      orderChartRows(
        [
          { key: '2026-01-02', currency: 'EUR', ...o },
          { key: '2026-01-02', currency: 'USD', ...o },
        ],
        'DAY',
      ).map((r) => r.label),
    ).toEqual(['2026-01-02 EUR', '2026-01-02 USD']);
    expect(orderChartRows([{ key: 'EUR', currency: 'EUR', ...o }], 'CURRENCY')[0]).toEqual({ label: 'EUR', total: 10.5, orderCount: 1 });
  });
});
