// Tokens signed by an identity provider and verified against its JWKS (AUTH_JWKS_URL), through real
// gateways on the real stack, the endpoint a local HTTP server serving jose-made keys
// (test/support/jwksServer.ts): RS256 and ES256 tokens answer real mutations as their subject and
// roles; an unknown key, an algorithm outside AUTH_ALGORITHMS and an HS256 token keyed with the public
// key (algorithm confusion) are UNAUTHENTICATED; a rotated-in key is fetched on its first token and a
// withdrawn one stops verifying once the cached set is older than AUTH_JWKS_CACHE_MAX_AGE_MS; an
// endpoint that is down, serves garbage, a huge body or a body that never ends costs a bounded wait and
// a typed refusal, never a 500 or a hang, and the gateway verifies again once the endpoint recovers.
import type { KeyObject } from 'node:crypto';
import { startTidemark, type Tidemark } from '../../src/app/start';
import type { Settings } from '../../src/config/settings';
import { waitFor } from '../../src/shared/lifecycle';
import { executeRaw, type GraphQLResponse } from '../support/graphqlClient';
import { idpKey, idpToken, startJwksServer, type IdpKey, type JwksServer } from '../support/jwksServer';
import { createTestEnv, type TestEnv } from '../support/testEnv';

jest.setTimeout(180000);

const PLACE = `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { order { orderId customerId changedBy } } }`;
let keyCounter = 0;
const order = (customerId?: string) => ({
  input: {
    ...(customerId ? { customerId } : {}),
    currency: 'EUR',
    idempotencyKey: `jwks-${Date.now()}-${keyCounter++}`,
    items: [{ sku: 'S', quantity: 1, unitPrice: '1.00' }],
  },
});

type Placed = { placeOrder: { order: { customerId: string; changedBy: string | null } } };

describe('JWKS: asymmetric tokens from an identity provider', () => {
  let env: TestEnv;
  let s: Settings;
  let jwks: JwksServer;
  let rsa: IdpKey, ec: IdpKey, ed: IdpKey, rsaNext: IdpKey, stranger: IdpKey;
  // rotating: keys kept for 10 minutes (jose's default), fetched again on an unknown kid after a 1 s cooldown.
  // expiring: keys kept 2 s, so withdrawn keys and a failing endpoint show within a bounded time.
  let rotating: Tidemark, expiring: Tidemark;

  const place = (app: Tidemark, token: string, customerId?: string) =>
    executeRaw(app.gateway!.url, PLACE, order(customerId), { authorization: `Bearer ${token}` });
  const customer = (key: IdpKey) => idpToken(s, key, { sub: `idp-${key.kid}`, roles: ['customer'], customer_id: `c-${key.kid}` });
  const refused = (r: GraphQLResponse<unknown>) => {
    expect(r.status).toBe(401);
    expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(r.errors?.[0]?.message).not.toMatch(/jwks|kid|timeout|json/i);
  };
  const accepted = (r: GraphQLResponse<unknown>) => r.status === 200 && r.errors === undefined;

  beforeAll(async () => {
    env = await createTestEnv();
    s = env.settings;
    [rsa, ec, ed, rsaNext, stranger] = await Promise.all([
      idpKey('rsa-1', 'RS256'),
      idpKey('ec-1', 'ES256'),
      idpKey('ed-1', 'EdDSA'),
      idpKey('rsa-2', 'RS256'),
      idpKey('rsa-1', 'RS256'),
    ]);
    jwks = await startJwksServer({ keys: [rsa, ec, ed] });
    const idp: Partial<Settings> = {
      roles: ['gateway'],
      authJwtSecret: undefined,
      authJwksUrl: jwks.url,
      authAlgorithms: ['RS256', 'ES256'],
      authJwksTimeoutMs: 1000,
    };
    rotating = await startTidemark(
      { ...s, ...idp, instanceId: 'gw-jwks-rotating', authJwksCacheMaxAgeMs: 600000, authJwksCooldownMs: 1000 },
      { migrate: false },
    );
    expiring = await startTidemark(
      { ...s, ...idp, instanceId: 'gw-jwks-expiring', authJwksCacheMaxAgeMs: 2000, authJwksCooldownMs: 3600000, authTokenCacheTtlMs: 2000 },
      { migrate: false },
    );
  });
  afterAll(async () => {
    await rotating?.stop();
    await expiring?.stop();
    await jwks?.close();
    await env?.cleanup();
  });

  it('accepts RS256 and ES256 tokens with their subject, roles and scope', async () => {
    const r = await place(rotating, await customer(rsa));
    expect(r.errors).toBeUndefined();
    // The customer's order is placed for the customer_id of its token.
    expect((r.data as Placed).placeOrder.order.customerId).toBe('c-rsa-1');

    const service = await idpToken(s, ec, { sub: 'test-service', roles: ['service'] });
    const e = await place(rotating, service, 'c-for-service');
    expect(e.errors).toBeUndefined();
    // Services see who wrote a version: the ES256 token's subject.
    expect((e.data as Placed).placeOrder.order).toMatchObject({ customerId: 'c-for-service', changedBy: 'test-service' });

    // The roles are honoured, not just the signature: an analyst may not place orders.
    const analyst = await place(rotating, await idpToken(s, ec, { sub: 'idp-analyst', roles: ['analyst'] }), 'c-x');
    expect(analyst.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses an unknown key, an unpinned algorithm and an HS256 token keyed with the public key', async () => {
    // A key the endpoint never served, under a kid it does not know and under one it does.
    refused(await place(rotating, await customer({ ...stranger, kid: 'stranger-1' })));
    refused(await place(rotating, await customer(stranger)));
    // EdDSA is served, but AUTH_ALGORITHMS pins RS256 and ES256.
    refused(await place(rotating, await customer(ed)));
    // Algorithm confusion: the RSA public key (PEM and DER) used as an HMAC secret under its kid.
    const pub = rsa.publicKey as KeyObject;
    for (const secret of [pub.export({ type: 'spki', format: 'pem' }), pub.export({ type: 'spki', format: 'der' })]) {
      const hs = await idpToken(
        s,
        { alg: 'HS256', kid: rsa.kid, privateKey: new Uint8Array(Buffer.from(secret)) },
        { sub: 'x', roles: ['operator'] },
      );
      refused(await place(rotating, hs, 'c-x'));
    }
    // And the genuine key still works (the refusals above were not an outage).
    expect(accepted(await place(rotating, await customer(rsa)))).toBe(true);
  });

  it('fetches a rotated-in key on its first tokens and stops verifying a withdrawn one', async () => {
    // Both gateways verified rsa-1 above or now; its token is remembered by the expiring gateway's cache.
    const old = await customer(rsa);
    expect(accepted(await place(expiring, old))).toBe(true);
    jwks.serve({ keys: [rsaNext, ec] });
    // The rotating gateway keeps its set 10 minutes, yet knows rsa-2 once its cooldown allows a fetch.
    await waitFor(async () => accepted(await place(rotating, await customer(rsaNext))), { timeoutMs: 30000, what: 'rsa-2 accepted' });
    const r = await place(rotating, await customer(rsaNext));
    expect((r.data as Placed).placeOrder.order.customerId).toBe('c-rsa-2');
    // The withdrawn rsa-1 is refused by the expiring gateway once its set is stale: a new token and the
    // one it had verified and remembered alike.
    await waitFor(async () => (await place(expiring, await customer(rsa))).status === 401, {
      timeoutMs: 60000,
      what: 'new rsa-1 token refused',
    });
    await waitFor(async () => (await place(expiring, old)).status === 401, { timeoutMs: 60000, what: 'remembered rsa-1 token refused' });
    refused(await place(expiring, old));
    expect(accepted(await place(expiring, await customer(rsaNext)))).toBe(true);
  });

  it.each(['unavailable', 'garbage', 'huge', 'stalled'] as const)(
    'refuses tokens (UNAUTHENTICATED, no hang) while the endpoint is %s, and verifies again once it recovers',
    async (mode) => {
      jwks.serve({ keys: [rsaNext, ec] });
      await waitFor(async () => accepted(await place(expiring, await customer(ec))), { timeoutMs: 60000, what: 'keys served again' });
      const before = jwks.fetches;
      jwks.serve(mode);
      // Each request answers (a hang would stall here until jest's timeout); once the set is stale, the
      // gateway fetches the broken endpoint and refuses.
      await waitFor(async () => (await place(expiring, await customer(ec))).status !== 200, {
        timeoutMs: 60000,
        what: `refusal (${mode})`,
      });
      expect(jwks.fetches).toBeGreaterThan(before);
      refused(await place(expiring, await customer(ec)));
      // The gateway itself still answers (its health check needs no keys).
      expect((await fetch(new URL('/healthz', expiring.gateway!.url))).status).toBe(200);
      jwks.serve({ keys: [rsaNext, ec] });
      await waitFor(async () => accepted(await place(expiring, await customer(ec))), { timeoutMs: 60000, what: `recovery after ${mode}` });
    },
  );
});
