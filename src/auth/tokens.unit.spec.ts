import { SignJWT } from 'jose';
import { mayAccess } from './principal';
import { AuthError, bearer, fromJwtSecret, signToken } from './tokens';
import { authChecker, authenticate } from '../graphql/auth';
import type { GatewayContext } from '../graphql/context';

const secret = 'unit-test-secret-0123456789abcdefghij';
const o = { issuer: 'tidemark', audience: 'tidemark-gateway' };
const verifier = fromJwtSecret(secret, o);

describe('bearer tokens', () => {
  it('verifies a token and yields its principal', async () => {
    const t = await signToken(secret, { subject: 'teacher-1', roles: ['client'] }, o);
    await expect(verifier.verify(t)).resolves.toEqual({ subject: 'teacher-1', roles: ['client'] });
  });

  it.each([
    [
      'a token signed with another secret',
      () => signToken('another-secret-0123456789abcdefghijkl', { subject: 's', roles: ['operator'] }, o),
    ],
    ['a token for another audience', () => signToken(secret, { subject: 's', roles: ['operator'] }, { ...o, audience: 'elsewhere' })],
    ['an expired token', () => signToken(secret, { subject: 's', roles: ['operator'] }, { ...o, ttlSeconds: -60 })],
    [
      'a token with an unknown role',
      () =>
        new SignJWT({ roles: ['admin'] })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('s')
          .setIssuer(o.issuer)
          .setAudience(o.audience)
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(secret)),
    ],
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

describe('roles', () => {
  it('lets operators do everything, clients write, analysts read reports', () => {
    const op = { subject: 'o', roles: ['operator' as const] };
    const client = { subject: 'c', roles: ['client' as const] };
    const analyst = { subject: 'a', roles: ['analyst' as const] };
    expect(['read', 'write', 'report', 'operate'].map((l) => mayAccess(op, l as never))).toEqual([true, true, true, true]);
    expect(['read', 'write', 'report', 'operate'].map((l) => mayAccess(client, l as never))).toEqual([true, true, false, false]);
    expect(['read', 'write', 'report', 'operate'].map((l) => mayAccess(analyst, l as never))).toEqual([true, false, true, false]);
  });

  it('the auth checker raises UNAUTHENTICATED without a principal and FORBIDDEN for the wrong role', async () => {
    const ctx = (auth: GatewayContext['auth']) => ({ context: { auth } as GatewayContext, root: {}, args: {}, info: {} as never });
    expect(() => authChecker(ctx({}), ['write'])).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    const analyst = await authenticate(verifier, `Bearer ${await signToken(secret, { subject: 'a', roles: ['analyst'] }, o)}`);
    expect(() => authChecker(ctx(analyst), ['write'])).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(authChecker(ctx(analyst), ['report'])).toBe(true);
    const bad = await authenticate(verifier, 'Bearer not.a.real-token');
    expect(() => authChecker(ctx(bad), ['read'])).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });
});

describe('tokens from other identity providers', () => {
  const sign = (claims: Record<string, unknown>, alg = 'HS256') =>
    new SignJWT(claims)
      .setProtectedHeader({ alg })
      .setSubject('u-1')
      .setIssuer(o.issuer)
      .setAudience(o.audience)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));

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
    const t384 = await sign({ roles: ['client'] }, 'HS384');
    await expect(verifier.verify(t384)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', cause: { code: 'ERR_JOSE_ALG_NOT_ALLOWED' } });
    await expect(fromJwtSecret(secret, { ...o, algorithms: ['HS384'] }).verify(t384)).resolves.toEqual({
      subject: 'u-1',
      roles: ['client'],
    });
    await expect(fromJwtSecret(secret, { ...o, algorithms: ['HS384'] }).verify(await sign({ roles: ['client'] }))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});
