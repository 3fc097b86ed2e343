// The gateway process on the real stack: GraphQL answers over HTTP (typed operations from codegen),
// /healthz and /readyz tell the truth (degraded or not ready: degradedGateway.e2e.spec.ts), /metrics is served, and a
// bad setting stops start-up with a message naming the variable.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { HealthDocument } from '../generated/graphql';
import { execute, executeRaw } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

describe('gateway process', () => {
  let env: TestEnv;
  let app: Tidemark;
  let base: string;
  let op: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
    op = await authHeader(env.settings, 'operator');
    app = await startTidemark({ ...env.settings, roles: ['gateway'] }, { migrate: false });
    base = app.gateway!.url.replace(/\/graphql$/, '');
  });
  afterAll(async () => {
    await app?.stop();
    await env.cleanup();
  });

  it('answers a typed query and an introspection query over HTTP', async () => {
    const r = await execute(app.gateway!.url, HealthDocument, undefined, op);
    expect(r.errors).toBeUndefined();
    expect(r.data!.health.ready).toBe(true);
    expect(r.data!.health.stores.map((s) => s.store).sort()).toEqual(['clickhouse', 'kafka', 'mysql', 'postgres']);

    const intro = await executeRaw(app.gateway!.url, '{ __schema { queryType { name } types { name } } }', undefined, op);
    expect(intro.errors).toBeUndefined();
    expect((intro.data as { __schema: { queryType: { name: string } } }).__schema.queryType.name).toBe('Query');
  });

  it('serves liveness, readiness, metrics and the local explorer', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', failing: [] });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('tidemark_graphql_request_duration_seconds');
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('/explorer/graphiql.js');
    expect((await fetch(`${base}/explorer/graphiql.js`)).status).toBe(200);
  });

  it('answers a malformed query with a stable code and no stack trace', async () => {
    const r = await executeRaw(app.gateway!.url, '{ health { nope } }', undefined, op);
    expect(r.status).toBe(400);
    expect(r.errors![0]!.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', requestId: expect.any(String) });
  });

  it('enforces depth and cost limits and can turn introspection off', async () => {
    const strict = await startTidemark(
      { ...env.settings, roles: ['gateway'], graphqlMaxDepth: 1, graphqlMaxCost: 3, graphqlIntrospection: false },
      { migrate: false },
    );
    try {
      const deep = await executeRaw(strict.gateway!.url, '{ health { stores { store } } }', undefined, op);
      expect(deep.errors![0]!.extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(deep.errors![0]!.message).toMatch(/exceeds maximum operation depth of 1/);
      const costly = await executeRaw(strict.gateway!.url, '{ health { ready version instanceId roles } }', undefined, op);
      expect(costly.errors![0]!.extensions!.code).toBe('QUERY_TOO_COMPLEX');
      const intro = await executeRaw(strict.gateway!.url, '{ __schema { types { name } } }', undefined, op);
      expect(intro.errors![0]!.extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await strict.stop();
    }
  });

  it('refuses to start with a bad setting and names the variable', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'main.ts')], {
      env: { ...process.env, HTTP_PORT: 'not-a-port', STACK_MANAGE: 'false' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('HTTP_PORT="not-a-port" is invalid');
    expect(r.stderr).toContain('Set HTTP_PORT');
  });
});
