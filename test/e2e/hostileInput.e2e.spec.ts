// Bad input at the edge, table-driven: wrong types, huge strings and lists, deep nesting, unknown
// fields, injection strings in every string argument, invalid tokens. Every request that must be
// refused gets a clear typed error (a stable extensions.code, a message without SQL, stack or echoed
// payload) and changes nothing: the authoritative stores' fingerprint is identical after it, and
// nothing reaches Kafka: the app's relay role runs alongside the gateway the whole time (it relayed the
// seeded result before the cases, and relays a control write after them), so a stray outbox row would
// have been published. Queries and operator actions fed the same strings answer safely (data or a
// typed error) and change nothing. Free-text fields (customer id, SKU, order key) accept the strings
// that pass validation as plain data, stored byte for byte.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import { hostileStrings } from '../support/hostile';
import { domainTopicMessages, storeSnapshot, type StoreSnapshot } from '../support/storeSnapshot';
import { createTestEnv, TEST_JWT_SECRET, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { callRaw, isClear, type Answer } from '../support/timedClient';
import { hostileCases, PLACE, validOrder, type Auth, type HostileCase } from '../support/hostileCases';
import { injectionCases, tokenCases } from '../support/hostileStringCases';
import { scopeCases } from '../support/hostileScopeCases';

describe('hostile GraphQL input', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let before: StoreSnapshot;
  let kafkaBefore: number;
  const headers: Record<string, Record<string, string>> = {};
  const seeded = { dataId: '', version: 1 };

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay'] }, { migrate: false });
    url = app.gateway!.url;
    for (const role of ['service', 'operator', 'analyst'] as const) headers[role] = await authHeader(env.settings, role);
    const enc = new TextEncoder().encode(TEST_JWT_SECRET);
    const sign = (claims: Record<string, unknown>, o: { iss?: string; aud?: string; exp?: number } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('hostile')
        .setIssuer(o.iss ?? env.settings.authIssuer)
        .setAudience(o.aud ?? env.settings.authAudience)
        .setExpirationTime(o.exp ?? Math.floor(Date.now() / 1000) + 600)
        .sign(enc);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    headers.none = {};
    headers.garbage = bearer('garbage');
    headers.oversized = bearer('x'.repeat(5000));
    headers.wrongSecret = bearer(
      await new SignJWT({ roles: ['operator'] })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('x')
        .setIssuer(env.settings.authIssuer)
        .setAudience(env.settings.authAudience)
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('another-secret-0123456789abcdefghij')),
    );
    headers.expired = bearer(await sign({ roles: ['operator'] }, { exp: Math.floor(Date.now() / 1000) - 3600 }));
    headers.wrongAudience = bearer(await sign({ roles: ['operator'] }, { aud: 'someone-else' }));
    headers.wrongIssuer = bearer(await sign({ roles: ['operator'] }, { iss: 'evil' }));
    headers.unknownRole = bearer(await sign({ roles: ['superuser'] }));
    headers.algNone = bearer(
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'x', roles: ['operator'], iss: env.settings.authIssuer, aud: env.settings.authAudience })}.`,
    );
    headers.basic = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };

    // One result and one order exist, so corrections and lookups have real targets to damage.
    const rec = await callRaw<{ recordFitnessResult: { result: { dataId: string; version: number } } }>(
      url,
      'mutation R($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId version } } }',
      { input: { detectId: 42, userId: 7, projectId: 3, schoolId: 5, grade: 4, result: '2.310', unit: 'm' } },
      headers.service!,
      15000,
    );
    seeded.dataId = rec.data!.recordFitnessResult.result.dataId;
    const placed = await callRaw(url, PLACE, { input: validOrder() }, headers.service!, 15000);
    expect(placed.kind).toBe('data');
    // The relay is live: the seeded result's outbox row is published (SENT) before anything is measured.
    await waitFor(() => outboxSent(seeded.dataId), { timeoutMs: 30000, what: 'the relay to publish the seeded result' });
    before = await storeSnapshot(env.resources);
    kafkaBefore = await domainTopicMessages(env.resources);
  }, 120000);

  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const send = (c: HostileCase): Promise<Answer<unknown>> => {
    const h = headers[c.auth as Auth] ?? headers.service!;
    return c.rawBody !== undefined
      ? rawPost(url, c.rawBody, h)
      : callRaw(url, c.query!, typeof c.variables === 'function' ? c.variables(seeded) : c.variables, h, 30000);
  };

  const cases = [...hostileCases(), ...injectionCases(hostileStrings), ...tokenCases(), ...scopeCases()];

  it.each(cases.filter((c) => c.expect === 'reject'))('refuses $group: $name with a clear typed error and changes nothing', async (c) => {
    const a = await send(c);
    expect(a.kind).toBe('error');
    expect(c.codes).toContain(a.code);
    expect(isClear(a)).toBe(true);
    expectNoLeak(a);
    expect(await storeSnapshot(env.resources)).toEqual(before);
  });

  it.each(cases.filter((c) => c.expect === 'answer'))('answers $group: $name safely and changes nothing', async (c) => {
    const a = await send(c);
    expect(isClear(a)).toBe(true);
    if (a.kind === 'error') expect(c.codes).toContain(a.code);
    expectNoLeak(a);
    expect(await storeSnapshot(env.resources)).toEqual(before);
  });

  async function outboxSent(dataId: string): Promise<boolean> {
    const shard = env.resources.mysql.shard(Number(dataId) % 100).db;
    const rows = (await shard('outbox_events').where({ aggregate_id: dataId }).select('status')) as { status: string }[];
    return rows.length > 0 && rows.every((r) => r.status === 'SENT');
  }

  it('published nothing for any refused request', async () => {
    expect(await domainTopicMessages(env.resources)).toBe(kafkaBefore);
    // Control: the relay still runs and publishes an accepted write, so it would have published any
    // outbox row a refused request had left behind; the only new message is the control's.
    const control = await callRaw<{ recordFitnessResult: { result: { dataId: string } } }>(
      url,
      'mutation R($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId } } }',
      { input: { detectId: 42, userId: 8, projectId: 3, schoolId: 5, grade: 4, result: '2.400', unit: 'm' } },
      headers.service!,
      15000,
    );
    expect(control.kind).toBe('data');
    await waitFor(() => outboxSent(control.data!.recordFitnessResult.result.dataId), {
      timeoutMs: 30000,
      what: 'the relay to publish the control write',
    });
    expect(await domainTopicMessages(env.resources)).toBe(kafkaBefore + 1);
    before = await storeSnapshot(env.resources);
  });

  it('stores injection strings in free-text fields as plain data, byte for byte', async () => {
    const accepted = hostileStrings.filter((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s));
    for (const s of accepted) {
      const a = await callRaw<{ placeOrder: { order: { orderId: string } } }>(
        url,
        PLACE,
        {
          input: {
            ...validOrder(),
            customerId: s,
            idempotencyKey: `${s}-${randomUUID()}`,
            items: [{ sku: s, quantity: 1, unitPrice: '1.00' }],
          },
        },
        headers.service!,
        15000,
      );
      expect(a.kind).toBe('data');
      const row = (await env.resources.pg('orders').where({ order_id: a.data!.placeOrder.order.orderId }).first()) as {
        customer_id: string;
        items: { sku: string }[];
      };
      expect(row.customer_id).toBe(s);
      expect(row.items[0]!.sku).toBe(s);
    }
    const after = await storeSnapshot(env.resources);
    // Only the orders table changed, by exactly the accepted orders; every fitness table is untouched.
    for (const k of Object.keys(before).filter((k) => !k.startsWith('orders.orders') && !k.startsWith('orders.event_publications')))
      expect(after[k]).toEqual(before[k]);
    expect(Number(after['orders.orders']!.split('/')[0])).toBe(Number(before['orders.orders']!.split('/')[0]) + accepted.length);
  });
});

async function rawPost(url: string, body: string, headers: Record<string, string>): Promise<Answer<unknown>> {
  const started = Date.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  try {
    const j = JSON.parse(text) as { errors?: { message: string; extensions?: { code?: string } }[] };
    const e = j.errors?.[0];
    return e
      ? { kind: 'error', code: e.extensions?.code, message: e.message, status: res.status, ms: Date.now() - started }
      : { kind: 'data', status: res.status, ms: Date.now() - started };
  } catch {
    return { kind: 'http', status: res.status, message: text.slice(0, 200), ms: Date.now() - started };
  }
}

/** No SQL, driver codes, stack frames or echoed megabytes in what the client sees. */
function expectNoLeak(a: Answer<unknown>): void {
  const text = JSON.stringify({ message: a.message, details: a.details });
  expect(text).not.toMatch(/\b(SELECT|INSERT|UPDATE|DELETE FROM)\b|ER_[A-Z_]+|knex|mysql2|\.ts:\d+|at Object\.|stacktrace/);
  expect(text.length).toBeLessThan(4096);
}
