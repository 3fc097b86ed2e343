import { campaignScope } from '../domains/fitness/reconciliation/campaignScope';
import { orderWindowScope } from '../domains/orders/reconciliation/windowScope';
import { scopeFromJson, scopeJson, scopeKey } from './scope';
import { ValidationError } from '../shared/errors';

describe('reconciliation scopes', () => {
  it('names scopes stably and round-trips them through the ledger JSON', () => {
    const c = campaignScope(10001, 3);
    expect(scopeKey(c)).toBe('fitness:detect=10001:project=3');
    expect(scopeKey(campaignScope(10001))).toBe('fitness:detect=10001');
    const o = orderWindowScope('2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z');
    expect(scopeKey(o)).toBe('orders:2026-03-01T00:00:00.000Z..2026-03-02T00:00:00.000Z');
    expect(scopeFromJson(JSON.stringify(scopeJson(c)))).toEqual(c);
    expect(scopeFromJson(scopeJson(o))).toEqual(o);
  });

  it('rejects ids and windows that would make an unbounded or meaningless scan', () => {
    for (const bad of [0, -1, 1.5, 2 ** 31]) expect(() => campaignScope(bad)).toThrow(ValidationError);
    expect(() => orderWindowScope('2026-03-02T00:00:00Z', '2026-03-01T00:00:00Z')).toThrow(ValidationError);
    expect(() => orderWindowScope('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toThrow(ValidationError);
    expect(() => orderWindowScope('nope', '2026-03-01T00:00:00Z')).toThrow(ValidationError);
  });
});
