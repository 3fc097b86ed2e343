// What browser apps and client libraries expect of a GraphQL gateway, through real HTTP and WebSocket:
// CORS for the configured origins only, x-request-id round trips (header and error extensions), a
// subscription closed when its token expires, tokens whose roles sit at a Keycloak-style path, Relay
// connections (edges and a full pageInfo), and the HTTP limits (body size, depth, cost) on WebSocket too.
import { createClient } from 'graphql-ws';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { BODY_LIMIT_BYTES } from '../../src/graphql/server';
import { TOKEN_EXPIRED_CLOSE_CODE } from '../../src/graphql/websocket';
import { waitFor } from '../../src/shared/lifecycle';
import { PublicationStateChangedDocument } from '../generated/graphql';
import { executeRaw } from '../support/graphqlClient';
import { fitnessEvent, produceEvents } from '../support/projectionEvents';
import { subscribe } from '../support/subscriptionClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, tokenFor } from '../support/tokens';

jest.setTimeout(120000);

const ALLOWED = 'https://app.example.com';

describe('client conventions', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  // Every GraphQL request needs a token (an anonymous one is refused before its body is read).
  let op: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({ projectorFlushIntervalMs: 20, freshnessCacheMs: 0 });
    app = await startTidemark(
      { ...env.settings, roles: ['gateway', 'projector'], corsOrigins: [ALLOWED, 'http://localhost:5173'] },
      { migrate: false },
    );
    url = app.gateway!.url;
    op = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const preflight = (origin: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-request-id',
      },
    });

  it('lets a listed browser origin through CORS preflight and refuses another', async () => {
    const ok = await preflight(ALLOWED);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const post = await fetch(url, {
      method: 'POST',
      headers: { ...op, origin: ALLOWED, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ health { ready } }' }),
    });
    expect(post.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(post.headers.get('access-control-expose-headers')).toMatch(/x-request-id/);

    // A browser refuses the call when the preflight answer does not name its origin.
    const refused = await preflight('https://evil.example.net');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const other = await fetch(url, {
      method: 'POST',
      headers: { ...op, origin: 'https://evil.example.net', 'content-type': 'application/json' },
      body: '{"query":"{ health { ready } }"}',
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("returns the caller's x-request-id in a header and in error extensions, and generates one for an unsafe id", async () => {
    const ok = await fetch(url, {
      method: 'POST',
      headers: { ...op, 'content-type': 'application/json', 'x-request-id': 'app-42.retry:1' },
      body: '{"query":"{ health { ready } }"}',
    });
    expect(ok.headers.get('x-request-id')).toBe('app-42.retry:1');

    const res = await fetch(url, {
      method: 'POST',
      headers: { ...op, 'content-type': 'application/json', 'x-request-id': 'trace-7' },
      body: '{"query":"{ health { nope } }"}',
    });
    expect(res.headers.get('x-request-id')).toBe('trace-7');
    const body = (await res.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', requestId: 'trace-7' });

    const denied = await executeRaw(url, '{ publications(domain: orders) { nodes { eventId } } }', undefined, {
      'x-request-id': 'trace-8',
    });
    expect(denied.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED', requestId: 'trace-8' });

    for (const unsafe of ['has space', 'x'.repeat(129), 'quote"d']) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { ...op, 'content-type': 'application/json', 'x-request-id': unsafe },
        body: '{"query":"{ health { ready } }"}',
      });
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A body refused before GraphQL runs carries the id too.
    const big = await fetch(url, {
      method: 'POST',
      headers: { ...op, 'content-type': 'application/json', 'x-request-id': 'big-1' },
      body: JSON.stringify({ query: `{ health { ready } } #${'x'.repeat(BODY_LIMIT_BYTES)}` }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errors: { extensions: unknown }[] }).errors[0]!.extensions).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      requestId: 'big-1',
      retriable: false,
    });
  });

  it("closes a subscription with 4403 at its token's exp: delivering until then, nothing after", async () => {
    const s = env.settings;
    const hub = app.stateChangeHub!;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const at = async (ms: number) => {
      while (Date.now() < ms) await sleep(Math.min(20, ms - Date.now()));
    };
    const change = (eventId: string) => ({
      eventId,
      domain: 'fitness' as const,
      aggregateId: eventId,
      version: 1,
      from: null,
      to: 'NEW' as const,
      attempt: 0,
      at: new Date(),
    });
    const ids = (sub: { events: { publicationStateChanged: { eventId: string } }[] }) =>
      sub.events.map((e) => e.publicationStateChanged.eventId);
    // exp in whole seconds, 4 to 5 s ahead; the gateway closes the connection when its clock reaches it.
    const exp = Math.ceil(Date.now() / 1000) + 4;
    const expMs = exp * 1000;
    const shortLived = await new SignJWT({ roles: ['operator'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('op-short')
      .setIssuer(s.authIssuer)
      .setAudience(s.authAudience)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(s.authJwtSecret!));
    // A control subscriber with a long-lived token sees every marker, so a marker missing from the
    // short-lived one is the close, not a lost dispatch.
    const sub = subscribe(app.gateway!.wsUrl, PublicationStateChangedDocument, {}, `Bearer ${shortLived}`);
    const control = subscribe(app.gateway!.wsUrl, PublicationStateChangedDocument, {}, `Bearer ${await tokenFor(s, 'operator')}`);
    try {
      const active = async () => (await app.registry.getSingleMetric('tidemark_subscriptions_active')!.get()).values[0]?.value;
      await waitFor(async () => sub.socket !== undefined && (await active()) === 2, { what: 'both subscriptions to register' });
      let closedAt: number | undefined;
      sub.socket!.once('close', () => (closedAt = Date.now()));

      // Shortly before exp the connection is open and delivers.
      await at(expMs - 1000);
      const beforeAt = Date.now();
      hub.dispatch([change('before-exp')]);
      expect(beforeAt).toBeLessThan(expMs);
      await waitFor(() => ids(sub).includes('before-exp') && ids(control).includes('before-exp'), { what: 'the marker sent before exp' });
      expect(sub.closeCode).toBeUndefined();

      // Once the clock has passed exp (and the timers due then have run: the gateway shares this
      // process's event loop), a change is not delivered to it any more, though the control gets it.
      await at(expMs);
      await sleep(10);
      hub.dispatch([change('after-exp')]);
      await waitFor(() => ids(control).includes('after-exp'), { what: 'the marker sent after exp, to the control' });
      await waitFor(() => sub.closeCode !== undefined, { timeoutMs: 20000, intervalMs: 50, what: 'the connection to close' });
      expect(sub.closeCode).toBe(TOKEN_EXPIRED_CLOSE_CODE);
      expect(ids(sub)).toEqual(['before-exp']);
      // Never before exp (the client sees the close after the gateway sends it, on the same clock).
      expect(closedAt).toBeGreaterThanOrEqual(expMs);
      expect(control.closeCode).toBeUndefined();
    } finally {
      await sub.dispose();
      await control.dispose();
    }
  });

  it('accepts a Keycloak-shaped token when AUTH_ROLES_CLAIM=realm_access.roles', async () => {
    const s = env.settings;
    const keycloak = await startTidemark({ ...s, roles: ['gateway'], authRolesClaim: 'realm_access.roles' }, { migrate: false });
    try {
      const token = await new SignJWT({
        realm_access: { roles: ['offline_access', 'operator', 'uma_authorization'] },
        preferred_username: 'ops',
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('f3b1c2d4-keycloak-user')
        .setIssuer(s.authIssuer)
        .setAudience(s.authAudience)
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(s.authJwtSecret!));
      const r = await executeRaw(keycloak.gateway!.url, '{ publications(domain: orders, first: 5) { nodes { eventId } } }', undefined, {
        authorization: `Bearer ${token}`,
      });
      expect(r.errors).toBeUndefined();
      expect(r.data).toEqual({ publications: { nodes: [] } });
      // A token with the roles at the top level is not read there any more.
      const flat = await executeRaw(
        keycloak.gateway!.url,
        '{ publications(domain: orders) { nodes { eventId } } }',
        undefined,
        await authHeader(s, 'operator'),
      );
      expect(flat.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    } finally {
      await keycloak.stop();
    }
  });

  it('pages lists as Relay connections: edges with cursors and a full pageInfo beside nodes', async () => {
    const detectId = 777001;
    const events = [1, 2, 3].map((i) =>
      fitnessEvent({ dataId: 3000000 + i * 100, detectId, projectId: 3, schoolId: 1, grade: 4, userId: i, result: '1.500', version: 1 }),
    );
    const producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    try {
      await produceEvents(producer, env.resources.topics.events.fitness, events);
    } finally {
      await producer.disconnect();
    }
    const client = await authHeader(env.settings, 'service');
    const page = (after?: string) =>
      executeRaw(
        url,
        'query P($after: String) { fitnessResults(filter: { detectId: ' +
          detectId +
          ' }, first: 2, after: $after) { nodes { dataId } edges { cursor node { dataId } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }',
        { after },
        client,
      );
    type Page = { nodes: { dataId: string }[]; edges: { cursor: string; node: { dataId: string } }[]; pageInfo: Record<string, unknown> };
    await waitFor(async () => ((await page()).data?.fitnessResults as Page | undefined)?.pageInfo.hasNextPage, {
      timeoutMs: 60000,
      intervalMs: 200,
      what: 'the results projected',
    });
    const first = (await page()).data!.fitnessResults as Page;
    expect(first.edges.map((e) => e.node.dataId)).toEqual(first.nodes.map((n) => n.dataId));
    expect(first.nodes.map((n) => n.dataId)).toEqual(['3000100', '3000200']);
    expect(first.pageInfo).toEqual({
      startCursor: first.edges[0]!.cursor,
      endCursor: first.edges[1]!.cursor,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    // Any edge's cursor continues after it.
    const fromFirstEdge = (await page(first.edges[0]!.cursor)).data!.fitnessResults as Page;
    expect(fromFirstEdge.nodes.map((n) => n.dataId)).toEqual(['3000200', '3000300']);
    const last = (await page(first.pageInfo.endCursor as string)).data!.fitnessResults as Page;
    expect(last.nodes.map((n) => n.dataId)).toEqual(['3000300']);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: last.edges[0]!.cursor });
  });

  it('holds WebSocket operations to the HTTP body, depth and cost limits', async () => {
    const strict = await startTidemark({ ...env.settings, roles: ['gateway'], graphqlMaxDepth: 1, graphqlMaxCost: 3 }, { migrate: false });
    const operator = `Bearer ${await tokenFor(env.settings, 'operator')}`;
    try {
      const ws = strict.gateway!.wsUrl;
      // The upgrade request's x-request-id names the connection in its errors.
      class WithRequestId extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { 'x-request-id': 'ws-conn-1' } });
        }
      }
      const client = createClient({
        url: ws,
        webSocketImpl: WithRequestId,
        connectionParams: { authorization: operator },
        retryAttempts: 0,
      });
      const errorsOf = (query: string) =>
        new Promise<{ extensions?: Record<string, unknown> }[]>((resolve, reject) => {
          client.subscribe(
            { query },
            { next: () => undefined, error: (e) => resolve(e as never), complete: () => reject(new Error(`no error for ${query}`)) },
          );
        });
      const costly = await errorsOf('{ health { ready version instanceId roles } }');
      expect(costly[0]!.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', requestId: 'ws-conn-1' });
      const deep = await errorsOf('{ health { stores { store } } }');
      expect(deep[0]!.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
      await client.dispose();

      // A message larger than the HTTP body limit closes the connection (1009, message too big).
      const socket = new WebSocket(ws, 'graphql-transport-ws');
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: operator, pad: 'x'.repeat(BODY_LIMIT_BYTES) } }));
      expect(await closed).toBe(1009);
    } finally {
      await strict.stop();
    }
  });
});
