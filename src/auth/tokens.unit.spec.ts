// Bearer tokens: signature, issuer, audience and expiry (UNAUTHENTICATED, no detail), the pinned
// algorithms, and where other identity providers put the roles. Scope claims: scopeClaims.unit.spec.ts.
import { SignJWT } from 'jose';
import { AuthError, bearer, fromJwtSecret, signToken } from './tokens';

const secret = 'unit-test-secret-0123456789abcdefghij';
const o = { issuer: 'tidemark', audience: 'tidemark-gateway' };
const verifier = fromJwtSecret(secret, o);

const sign = (claims: Record<string, unknown>, o2: { alg?: string; sub?: string } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: o2.alg ?? 'HS256' })
    .setSubject(o2.sub ?? 'u-1')
    .setIssuer(o.issuer)
    .setAudience(o.audience)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));

describe('bearer tokens', () => {
  it('verifies a token and yields its principal', async () => {
    const t = await signToken(secret, { subject: 'ops-1', roles: ['operator'] }, o);
    await expect(verifier.verify(t)).resolves.toEqual({ subject: 'ops-1', roles: ['operator'] });
  });

  it.each([
    [
      'a token signed with another secret',
      () => signToken('another-secret-0123456789abcdefghijkl', { subject: 's', roles: ['operator'] }, o),
    ],
    ['a token for another audience', () => signToken(secret, { subject: 's', roles: ['operator'] }, { ...o, audience: 'elsewhere' })],
    ['an expired token', () => signToken(secret, { subject: 's', roles: ['operator'] }, { ...o, ttlSeconds: -60 })],
    ['a token with an unknown role', () => sign({ roles: ['admin'] })],
    [
      'an unsigned token',
      async () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"s","roles":["operator"]}').toString('base64url')}.`,
    ],
  ])('rejects %s as UNAUTHENTICATED', async (_what, make) => {
    const err = await verifier.verify(await make()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).code).toBe('UNAUTHENTICATED');
    expect((err as AuthError).message).toBe('invalid token');
  });

  it('parses only well-formed bearer headers', () => {
    expect(bearer(undefined)).toBeUndefined();
    expect(bearer('Bearer abcdefghijkl.mnop')).toBe('abcdefghijkl.mnop');
    expect(() => bearer('Basic dXNlcjpwYXNz')).toThrow(AuthError);
    expect(() => bearer("Bearer x' OR 1=1")).toThrow(AuthError);
  });
});

describe('tokens from other identity providers', () => {
  it('reads roles at a dotted path (Keycloak realm_access.roles), ignoring roles Tidemark does not know', async () => {
    const keycloak = fromJwtSecret(secret, { ...o, rolesClaim: 'realm_access.roles' });
    const t = await sign({ realm_access: { roles: ['offline_access', 'operator', 'uma_authorization'] } });
    await expect(keycloak.verify(t)).resolves.toEqual({ subject: 'u-1', roles: ['operator'] });
    // The default claim is not consulted when a path is configured, and vice versa.
    await expect(keycloak.verify(await sign({ roles: ['operator'] }))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(verifier.verify(t)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('reads a namespaced claim whose name holds dots (Auth0) as one claim', async () => {
    const auth0 = fromJwtSecret(secret, { ...o, rolesClaim: 'https://tidemark.example.com/roles' });
    const t = await sign({ 'https://tidemark.example.com/roles': ['analyst'] });
    await expect(auth0.verify(t)).resolves.toEqual({ subject: 'u-1', roles: ['analyst'] });
  });

  it('accepts only the pinned algorithms', async () => {
    const t384 = await sign({ roles: ['operator'] }, { alg: 'HS384' });
    await expect(verifier.verify(t384)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', cause: { code: 'ERR_JOSE_ALG_NOT_ALLOWED' } });
    const hs384 = fromJwtSecret(secret, { ...o, algorithms: ['HS384'] });
    await expect(hs384.verify(t384)).resolves.toEqual({ subject: 'u-1', roles: ['operator'] });
    await expect(hs384.verify(await sign({ roles: ['operator'] }))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
