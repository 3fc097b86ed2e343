// Hostile scopes for the operator's reconcile mutation (test/e2e/hostileInput.e2e.spec.ts): the
// `domain` variant carries a registered domain's own scope as JSON text, parsed and checked by that
// domain. Anything malformed, oversized, naming no registered domain or given beside another variant
// is refused with VALIDATION_FAILED before a run starts; a role other than operator is FORBIDDEN.
import type { HostileCase } from './hostileCases';

const RECONCILE = 'mutation S($scope: ReconciliationScopeInput!) { reconcile(scope: $scope, level: IDS) { run { outcome } } }';
const INVALID = ['VALIDATION_FAILED'];

const domainScope = (domain: string, scope: string) => ({ scope: { domain: { domain, scope } } });

export function scopeCases(): HostileCase[] {
  const reject = (name: string, variables: unknown, codes = INVALID, auth: HostileCase['auth'] = 'operator'): HostileCase => ({
    group: 'reconcile scope',
    name,
    query: RECONCILE,
    variables,
    auth,
    expect: 'reject',
    codes,
  });
  return [
    reject('scope JSON that does not parse', domainScope('fitness', '{"detectId": 1')),
    reject('scope JSON that is an array', domainScope('fitness', '[1, 2]')),
    reject('scope JSON that is null', domainScope('fitness', 'null')),
    reject('5,000 characters of scope JSON', domainScope('fitness', JSON.stringify({ detectId: 1, pad: 'x'.repeat(5000) }))),
    reject('a domain nobody registered', domainScope('nobody', '{"detectId": 1}')),
    reject('an injection string as the domain', domainScope("fitness' OR 1=1 --", '{"detectId": 1}')),
    reject("a scope the domain's own parser refuses", domainScope('fitness', '{"detectId": -3}')),
    reject('the JSON naming another domain than its variant', domainScope('orders', '{"domain": "fitness", "detectId": 1}')),
    reject('a domain scope beside a campaign', { scope: { campaign: { detectId: 1 }, domain: { domain: 'fitness', scope: '{}' } } }),
    reject('a domain scope asked by an analyst', domainScope('fitness', '{"detectId": 1}'), ['FORBIDDEN'], 'analyst'),
  ];
}
