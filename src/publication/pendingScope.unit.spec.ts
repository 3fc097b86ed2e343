// A freshness scope names only its domain module's scope fields (access.scopeFields): another domain's
// field, or anything else, is refused before it reaches SQL text.
import knex from 'knex';
import { domainModule } from '../domains/registry';
import { applyScope, type PendingScope } from './pendingScope';

const pg = knex({ client: 'pg' });
const sql = (scope: PendingScope) =>
  applyScope(pg, pg('outbox_events').select('*'), scope, domainModule(scope.domain).access.scopeFields).toString();

describe('pending scope fields', () => {
  afterAll(() => pg.destroy());

  it("filters on the domain's own fields and on createdAt", () => {
    expect(sql({ domain: 'orders', dataEquals: { customerId: 'c-1' }, createdFrom: new Date(0) })).toContain(
      `(message_value::jsonb #>> '{data,customerId}') = 'c-1'`,
    );
    expect(sql({ domain: 'fitness', dataIn: { schoolId: [11], userId: [] } })).toContain(`#>> '{data,schoolId}') IN ('11')`);
  });

  it("refuses another domain's field and unknown ones", () => {
    expect(() => sql({ domain: 'fitness', dataEquals: { customerId: 'c-1' } })).toThrow(TypeError);
    expect(() => sql({ domain: 'orders', dataIn: { schoolId: [1] } })).toThrow(TypeError);
    expect(() => sql({ domain: 'orders', dataEquals: { "x') OR 1=1 --": 1 } })).toThrow(TypeError);
  });
});
