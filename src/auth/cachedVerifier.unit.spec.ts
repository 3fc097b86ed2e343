// The token cache: a hit is the very token verified before, never a rejected one, and never past the
// token's exp or the cache period.
import { jwtVerify } from 'jose';
import { fixedClock, type Clock } from '../shared/clock';
import { cachingVerifier } from './cachedVerifier';
import type { Principal } from './principal';
import { AuthError, fromJwtSecret, signToken, type TokenVerifier } from './tokens';

const secret = 'unit-test-secret-0123456789abcdefghij';
const o = { issuer: 'tidemark', audience: 'tidemark-gateway' };

/** The real jose verifier, counting how often it runs. */
function counting(): TokenVerifier & { calls: number } {
  const real = fromJwtSecret(secret, o);
  const v = {
    calls: 0,
    verify(token: string): Promise<Principal> {
      v.calls++;
      return real.verify(token);
    },
  };
  return v;
}

/** Like counting(), but jose judges expiry by the test's clock, so an expired token is really refused. */
function countingAt(clock: Clock): TokenVerifier & { calls: number } {
  const key = new TextEncoder().encode(secret);
  const v = {
    calls: 0,
    async verify(token: string): Promise<Principal> {
      v.calls++;
      try {
        const { payload } = await jwtVerify(token, key, { ...o, currentDate: clock.now() });
        return { subject: payload.sub!, roles: (payload as { roles: Principal['roles'] }).roles };
      } catch (err) {
        throw new AuthError('UNAUTHENTICATED', 'invalid token', err);
      }
    },
  };
  return v;
}

describe('cachingVerifier', () => {
  it('checks a token once and answers repeated requests from memory', async () => {
    const inner = counting();
    const v = cachingVerifier(inner, { maxEntries: 10, ttlMs: 60000, clock: fixedClock(new Date()) });
    const teacher = { subject: 'teacher-1', roles: ['teacher' as const], schoolIds: [11, 12] };
    const t = await signToken(secret, teacher, o);
    // The scope comes from memory too: the cached principal is the verified one, claims included.
    for (let i = 0; i < 5; i++) await expect(v.verify(t)).resolves.toEqual(teacher);
    expect(inner.calls).toBe(1);
    const other = await signToken(secret, { subject: 'teacher-2', roles: ['operator'] }, o);
    await expect(v.verify(other)).resolves.toEqual({ subject: 'teacher-2', roles: ['operator'] });
    expect(inner.calls).toBe(2);
  });

  it('never remembers a rejected token', async () => {
    const inner = counting();
    const v = cachingVerifier(inner, { maxEntries: 10, ttlMs: 60000, clock: fixedClock(new Date()) });
    const forged = await signToken('another-secret-0123456789abcdefghijkl', { subject: 's', roles: ['operator'] }, o);
    for (let i = 0; i < 3; i++) await expect(v.verify(forged)).rejects.toBeInstanceOf(AuthError);
    expect(inner.calls).toBe(3);
  });

  it('checks again once the token has expired, even within the cache period', async () => {
    const clock = fixedClock(new Date());
    const inner = countingAt(clock);
    const v = cachingVerifier(inner, { maxEntries: 10, ttlMs: 3_600_000, clock });
    const t = await signToken(secret, { subject: 's', roles: ['analyst'] }, { ...o, ttlSeconds: 30 });
    await expect(v.verify(t)).resolves.toEqual({ subject: 's', roles: ['analyst'] });
    clock.advance(20_000);
    await expect(v.verify(t)).resolves.toEqual({ subject: 's', roles: ['analyst'] });
    expect(inner.calls).toBe(1);
    // Past exp: the cache does not answer, the signature check runs again and refuses the expired token.
    clock.advance(15_000);
    const refused = await v.verify(t).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AuthError);
    expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', cause: { code: 'ERR_JWT_EXPIRED' } });
    expect(inner.calls).toBe(2);
    await expect(v.verify(t)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(inner.calls).toBe(3);
  });

  it('checks again after the cache period, even when the token is still valid', async () => {
    const clock = fixedClock(new Date());
    const inner = counting();
    const v = cachingVerifier(inner, { maxEntries: 10, ttlMs: 60_000, clock });
    const t = await signToken(secret, { subject: 's', roles: ['analyst'] }, o);
    await v.verify(t);
    clock.advance(61_000);
    await v.verify(t);
    expect(inner.calls).toBe(2);
  });

  it('keeps at most maxEntries tokens and is off at size 0', async () => {
    const inner = counting();
    const v = cachingVerifier(inner, { maxEntries: 2, ttlMs: 60_000, clock: fixedClock(new Date()) });
    const tokens = await Promise.all(['a', 'b', 'c'].map((s) => signToken(secret, { subject: s, roles: ['analyst'] }, o)));
    for (const t of tokens) await v.verify(t);
    await v.verify(tokens[0]!); // evicted by c: checked again
    expect(inner.calls).toBe(4);
    expect(cachingVerifier(inner, { maxEntries: 0, ttlMs: 60_000, clock: fixedClock(new Date()) })).toBe(inner);
  });
});
