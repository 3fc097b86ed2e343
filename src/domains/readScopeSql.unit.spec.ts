// Each domain's read scope as SQL (fitness/read/fitnessScopeSql.ts, orders/read/orderScopeSql.ts), side
// by side: the latest-version school condition, the immutable-column pre-filters, and the scope keys.
import { ALL_FITNESS } from './fitness/policy';
import { fitnessScopeKey, fitnessScopeSql } from './fitness/read/fitnessScopeSql';
import { ALL_ORDERS } from './orders/policy';
import { orderScopeKey, orderScopeSql } from './orders/read/orderScopeSql';
import { scopeKey } from '../publication/pendingScope';

describe('scope SQL', () => {
  it('puts the school scope on the latest version, with a pre-filter that keeps every version', () => {
    expect(fitnessScopeSql('db', { all: false, schoolIds: [11, 11, 12], userIds: [] })).toEqual({
      where: ['data_id IN (SELECT data_id FROM `db`.fitness_results WHERE school_id IN (11, 12))'],
      having: ['l_school_id IN (11, 12)'],
    });
  });

  it('leaves the school pre-filter out when the query is already bounded by immutable conditions', () => {
    const campaign = ['detect_id = 7', 'project_id = 3'];
    expect(fitnessScopeSql('db', { all: false, schoolIds: [11], userIds: [] }, campaign)).toEqual({
      where: [],
      having: ['l_school_id IN (11)'],
    });
    expect(fitnessScopeSql('db', { all: false, schoolIds: [11], userIds: [4] }, campaign)).toEqual({
      where: [],
      having: ['(l_school_id IN (11) OR l_user_id IN (4))'],
    });
  });

  it('filters an immutable user_id before grouping, and ORs it with schools after', () => {
    expect(fitnessScopeSql('db', { all: false, schoolIds: [], userIds: [4] })).toEqual({ where: ['user_id IN (4)'], having: [] });
    expect(fitnessScopeSql('db', { all: false, schoolIds: [11], userIds: [4] })).toEqual({
      where: ['(user_id IN (4) OR data_id IN (SELECT data_id FROM `db`.fitness_results WHERE school_id IN (11)))'],
      having: ['(l_school_id IN (11) OR l_user_id IN (4))'],
    });
  });

  it('matches nothing for an empty scope and everything for all', () => {
    expect(fitnessScopeSql('db', { all: false, schoolIds: [], userIds: [] })).toEqual({ where: ['0'], having: [] });
    expect(fitnessScopeSql('db', ALL_FITNESS)).toEqual({ where: [], having: [] });
    expect(orderScopeSql({ all: false, customerIds: [] })).toEqual(['0']);
    expect(orderScopeSql({ all: false, customerIds: ["c'1"] })).toEqual(["customer_id IN ('c\\'1')"]);
    expect(orderScopeSql(ALL_ORDERS)).toEqual([]);
  });

  it('keys equal scopes equally and different scopes differently', () => {
    expect(fitnessScopeKey({ all: false, schoolIds: [12, 11, 11], userIds: [] })).toBe(
      fitnessScopeKey({ all: false, schoolIds: [11, 12], userIds: [] }),
    );
    expect(fitnessScopeKey({ all: false, schoolIds: [11], userIds: [] })).not.toBe(
      fitnessScopeKey({ all: false, schoolIds: [], userIds: [11] }),
    );
    expect(fitnessScopeKey(ALL_FITNESS)).not.toBe(fitnessScopeKey({ all: false, schoolIds: [], userIds: [] }));
    expect(orderScopeKey({ all: false, customerIds: ['b', 'a'] })).toBe(orderScopeKey({ all: false, customerIds: ['a', 'b'] }));
  });

  it("includes the caller's membership in a freshness scope's cache key", () => {
    const base = { domain: 'fitness' as const, dataEquals: { detectId: 1 } };
    const keys = [
      scopeKey(base),
      scopeKey({ ...base, dataIn: { schoolId: [11] } }),
      scopeKey({ ...base, dataIn: { schoolId: [99] } }),
      scopeKey({ ...base, dataIn: {} }),
    ];
    expect(new Set(keys).size).toBe(4);
    expect(scopeKey({ ...base, dataIn: { schoolId: [12, 11], userId: [] } })).toBe(scopeKey({ ...base, dataIn: { schoolId: [11, 12] } }));
  });
});
