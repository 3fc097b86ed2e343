// Hostile traffic against a real gateway on the real stack (issue #29): each attack with its expected
// outcome. Documents are refused before any parsing or validation work (anonymous callers before their
// body is read), callers over their rate get 429 with Retry-After, a second reconciliation of one scope
// is refused, unfiltered lists are refused for unscoped callers, a 1 MB filter string is refused, and
// tokens without exp (or that are not access tokens) are refused. Tests assert behaviour, not time:
// the timing bound (a 1 MB document refused in under 200 ms, /healthz unaffected) is
// `npm run bench` row 11.
import * as net from 'node:net';
import { SignJWT } from 'jose';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { executeRaw } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(180000);

const MB = 1024 * 1024;
const repeatedField = (bytes: number) => `{ health { ${'status '.repeat(Math.ceil(bytes / 7))}} }`;

describe('hostile traffic', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let base: string;
  let op: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({ reconcileCatchUpWaitMs: 2000 });
    // A tight rate for principals (test-operator keeps its own bucket); services keep theirs.
    app = await startTidemark(
      { ...env.settings, roles: ['gateway', 'projector'], rateLimitPerSecond: 5, rateLimitBurst: 40 },
      { migrate: false },
    );
    url = app.gateway!.url;
    base = url.replace(/\/graphql$/, '');
    op = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  /** POSTs `body` and reports its status and error code. */
  async function post(body: string, headers: Record<string, string>) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const answer = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    return { status: res.status, code: answer.errors?.[0]?.extensions?.code };
  }

  /**
   * Sends the head of a 1 MB POST and only its first 4 KiB, then waits for the answer while the rest
   * is held back: an answer proves the gateway refused it without reading (let alone parsing) the
   * body, and a /healthz answered meanwhile proves the half-sent request holds nobody up.
   */
  async function halfSentMegabyte(headers: Record<string, string>) {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const extra = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${MB}\r\n${extra}\r\n`);
    socket.write(JSON.stringify({ query: repeatedField(MB) }).slice(0, 4096));
    const sent = performance.now();
    let received = '';
    const answered = new Promise<string>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        if (/\r\n\r\n[\s\S]*\}\s*$/.test(received)) resolve(received);
      });
      socket.on('close', () => resolve(received));
    });
    const healthz = await fetch(`${base}/healthz`);
    const healthzMs = performance.now() - sent;
    const raw = await answered;
    const answerMs = performance.now() - sent;
    socket.destroy();
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
    const json = raw.slice(raw.indexOf('{'));
    const code = (JSON.parse(json.slice(0, json.lastIndexOf('}') + 1)) as { errors: { extensions: { code: string } }[] }).errors[0]!
      .extensions.code;
    // Printed, not asserted (tests assert behaviour): the bound is 200 ms.
    console.log(
      `1 MB document, body held back: HTTP ${status} ${code} in ${answerMs.toFixed(1)} ms; /healthz beside it ${healthzMs.toFixed(1)} ms`,
    );
    return { status, code, healthzStatus: healthz.status };
  }

  it.each([
    ['anonymous', {}, 401, 'UNAUTHENTICATED'],
    // Over the body limit: refused from its Content-Length.
    ['authenticated', 'operator', 413, 'PAYLOAD_TOO_LARGE'],
  ] as const)('refuses the 1 MB document of an %s caller before its body is read, holding nobody up', async (_who, h, status, code) => {
    const headers = h === 'operator' ? op : {};
    expect(await halfSentMegabyte(headers)).toEqual({ status, code, healthzStatus: 200 });
    // Sent whole, the same document gets the same answer (`npm run bench` row 11 times it).
    expect(await post(JSON.stringify({ query: repeatedField(MB - 64) }), headers)).toEqual({ status, code });
  });

  it('refuses repeated fields and too many tokens below the body limit before validation', async () => {
    const big = await post(JSON.stringify({ query: repeatedField(200 * 1024) }), op);
    expect(big).toEqual({ status: 413, code: 'DOCUMENT_TOO_LARGE' });
    const tokens = await executeRaw(url, `{ ${'a: health { status } '.repeat(400)}}`, undefined, op);
    expect(tokens.errors![0]!.extensions!.code).toBe('DOCUMENT_TOO_LARGE');
    const repeated = await executeRaw(url, `{ health { ${'status '.repeat(50)}} }`, undefined, op);
    expect(repeated.errors![0]!.extensions!.code).toBe('QUERY_TOO_COMPLEX');
    expect(repeated.errors![0]!.message).toMatch(/"status" is selected 50 times/);
  });

  it('answers GraphQL only to signed-in callers; /healthz to everyone; no X-Powered-By', async () => {
    const anon = await executeRaw(url, '{ health { status } }');
    expect({ status: anon.status, code: anon.errors?.[0]?.extensions?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    const intro = await executeRaw(url, '{ __schema { queryType { name } } }');
    expect(intro.status).toBe(401);
    const healthz = await fetch(`${base}/healthz`);
    expect(healthz.status).toBe(200);
    expect(healthz.headers.get('x-powered-by')).toBeNull();
    expect(
      (
        await fetch(url, {
          method: 'POST',
          headers: { ...op, 'content-type': 'application/json' },
          body: '{"query":"{ health { status } }"}',
        })
      ).headers.get('x-powered-by'),
    ).toBeNull();
  });

  it('answers a client over its rate with 429 and Retry-After', async () => {
    const h = await authHeaderFor(env.settings, { subject: 'rate-tester', roles: ['operator'] });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    // Sequential requests as fast as the machine answers (a cheap query, no engine probed): faster than 5/s,
    // so the burst of 40 runs out however loaded the machine is; the bound only stops a broken limiter.
    for (let i = 0; i < 2000; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      });
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get('retry-after');
        expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('RATE_LIMITED');
        break;
      }
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const refused = (await app.registry.getSingleMetric('tidemark_requests_refused_total')!.get()).values.find(
      (v) => v.labels.reason === 'rate',
    );
    expect(refused?.value).toBeGreaterThan(0);
  });

  it('refuses a second concurrent reconciliation of one scope', async () => {
    const q = 'mutation($d: Int!) { reconcile(scope: { campaign: { detectId: $d } }, level: IDS) { run { outcome } } }';
    const answers = await Promise.all(Array.from({ length: 4 }, () => executeRaw(url, q, { d: 777 }, op)));
    const codes = answers.map((a) => a.errors?.[0]?.extensions?.code ?? 'ran');
    expect(codes).toContain('ran');
    expect(codes).toContain('OPERATION_IN_PROGRESS');
  });

  it('refuses an unfiltered list for unscoped callers, and bounds it by the scope of scoped ones', async () => {
    const list = '{ fitnessResults(first: 10) { nodes { dataId } } }';
    for (const role of ['operator', 'service'] as const) {
      const r = await executeRaw(url, list, undefined, await authHeader(env.settings, role));
      expect({ role, code: r.errors?.[0]?.extensions?.code }).toEqual({ role, code: 'FILTER_REQUIRED' });
    }
    const teacher = await executeRaw(
      url,
      list,
      undefined,
      await authHeaderFor(env.settings, { subject: 't', roles: ['teacher'], schoolIds: [5] }),
    );
    expect(teacher.errors).toBeUndefined();
    const orders = await executeRaw(url, '{ orders(first: 10) { nodes { orderId } } }', undefined, op);
    expect(orders.errors?.[0]?.extensions?.code).toBe('FILTER_REQUIRED');
    const wide = await executeRaw(
      url,
      '{ orders(first: 10, filter: { from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" }) { nodes { orderId } } }',
      undefined,
      op,
    );
    expect(wide.errors?.[0]?.extensions?.code).toBe('FILTER_REQUIRED');
    // The freshness marker alone reads no rows: no filter needed.
    const badge = await executeRaw(url, '{ orders(first: 1) { freshness { status } } }', undefined, op);
    expect(badge.errors).toBeUndefined();
  });

  it('refuses a 1 MB customerId filter, and one longer than the write side allows', async () => {
    const q = 'query($c: String) { orders(filter: { customerId: $c }) { nodes { orderId } } }';
    const huge = await executeRaw(url, q, { c: 'c'.repeat(MB) }, op);
    expect({ status: huge.status, code: huge.errors?.[0]?.extensions?.code }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    const long = await executeRaw(url, q, { c: 'c'.repeat(100_000) }, op);
    expect(long.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(long).length).toBeLessThan(2000);
  });

  it('refuses a token without exp, and ID tokens; accepts an at+jwt access token', async () => {
    const s = env.settings;
    const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}, exp = true) => {
      let j = new SignJWT({ roles: ['operator'], ...claims })
        .setProtectedHeader({ alg: 'HS256', ...header })
        .setSubject('tok')
        .setIssuer(s.authIssuer)
        .setAudience(s.authAudience)
        .setIssuedAt();
      if (exp) j = j.setExpirationTime('10m');
      return j.sign(new TextEncoder().encode(s.authJwtSecret!));
    };
    const ask = async (t: string) => executeRaw(url, '{ health { status } }', undefined, { authorization: `Bearer ${t}` });
    expect((await ask(await sign({}, {}, false))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await ask(await sign({}, { typ: 'id_token+jwt' }))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await ask(await sign({ nonce: 'n-1' }))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await ask(await sign({ typ: 'ID' }))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await ask(await sign({}, { typ: 'at+jwt' }))).errors).toBeUndefined();
    expect((await ask(await sign({}, { typ: 'JWT' }))).errors).toBeUndefined();
  });
});
