// The projection table specs (src/domains/<domain>/projection/) are written once and everything else
// is derived from them, while the tables themselves are created by the migrations (their history).
// This holds the two together on the real ClickHouse: DESCRIBE TABLE of each migrated table lists
// exactly the spec's columns, in its order, with its types and decimal scales.
import { clickHouseType } from '../../domains/contract/projectionTable';
import { projectedDomains } from '../../domains/projections';
import { ident } from '../../infra/clickhouse/literal';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';

describe('projection table specs match the migrated tables', () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv();
  });

  afterAll(async () => {
    await env?.cleanup();
  });

  it.each(projectedDomains().map((p) => [p.table.name, p.table] as const))('%s', async (_name, table) => {
    const rs = await env.resources.clickhouse.query({
      query: `DESCRIBE TABLE ${ident(env.settings.clickhouseDatabase)}.${ident(table.name)}`,
      format: 'JSONEachRow',
    });
    const described = (await rs.json<{ name: string; type: string }>()).map((c) => ({ name: c.name, type: c.type }));
    expect(described).toEqual(table.columns.map((c) => ({ name: c.name, type: clickHouseType(c.type) })));
  });
});
