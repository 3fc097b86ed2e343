// The roles and scope claims a valid token carries: each scoped role with its claim, FORBIDDEN naming
// the claim when it is missing or malformed (fail closed), configured claim names, the retired client
// role, and `service` only for enabled subjects.
import { SignJWT } from 'jose';
import { AuthError, fromJwtSecret, signToken, type JwtOptions } from './tokens';

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

const refusal = async (claims: Record<string, unknown>, options: Partial<JwtOptions> = {}, sub?: string) =>
  fromJwtSecret(secret, { ...o, ...options })
    .verify(await sign(claims, { sub }))
    .then(
      () => undefined,
      (e: unknown) => e as AuthError,
    );

describe('scoped roles', () => {
  it.each([
    ['customer', { customer_id: 'c-42' }, { customerId: 'c-42' }],
    ['teacher', { school_ids: [12, 11, 12] }, { schoolIds: [11, 12] }],
    ['student', { user_id: 7 }, { userId: 7 }],
    ['analyst', {}, {}],
    ['analyst', { school_ids: [3] }, { schoolIds: [3] }],
    ['operator', {}, {}],
  ])('reads a %s token with %j into its scope', async (role, claims, scope) => {
    await expect(verifier.verify(await sign({ roles: [role], ...claims }))).resolves.toEqual({ subject: 'u-1', roles: [role], ...scope });
  });

  it.each([
    [
      'teacher',
      'school_ids',
      [{}, { school_ids: ['x'] }, { school_ids: [] }, { school_ids: 11 }, { school_ids: [0] }, { school_ids: [1.5] }],
    ],
    ['analyst', 'school_ids', [{ school_ids: ['x'] }, { school_ids: [] }]],
    ['customer', 'customer_id', [{}, { customer_id: 42 }, { customer_id: '' }, { customer_id: 'c'.repeat(65) }]],
    ['student', 'user_id', [{}, { user_id: '7' }, { user_id: 1.5 }, { user_id: 0 }, { user_id: [7] }]],
  ])('refuses a %s token without a well-formed %s claim as FORBIDDEN naming it', async (role, claim, cases) => {
    for (const claims of cases as Record<string, unknown>[]) {
      const err = await refusal({ roles: [role], ...claims });
      expect(err).toBeInstanceOf(AuthError);
      expect(err).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining(`the ${role} role needs the ${claim} claim`) });
    }
  });

  it('reads scope claims under configured names: an exact (namespaced) name first, else a dotted path', async () => {
    const namespaced = { schoolIds: 'https://x/claims.school_ids', customerId: 'https://x/claims.customer_id', userId: 'https://x/uid' };
    const flat = { 'https://x/claims.school_ids': [5], 'https://x/claims.customer_id': 'c-1', 'https://x/uid': 9 };
    const v = fromJwtSecret(secret, { ...o, scopeClaims: namespaced });
    await expect(v.verify(await sign({ roles: ['teacher', 'customer', 'student'], ...flat }))).resolves.toEqual({
      subject: 'u-1',
      roles: ['customer', 'teacher', 'student'],
      customerId: 'c-1',
      schoolIds: [5],
      userId: 9,
    });
    const nested = fromJwtSecret(secret, { ...o, scopeClaims: { schoolIds: 'tidemark.school_ids', userId: 'tidemark.user_id' } });
    await expect(nested.verify(await sign({ roles: ['teacher'], tidemark: { school_ids: [2, 1] } }))).resolves.toMatchObject({
      schoolIds: [1, 2],
    });
    await expect(nested.verify(await sign({ roles: ['student'], tidemark: { user_id: 4 } }))).resolves.toMatchObject({ userId: 4 });
    // The default name is not consulted once another is configured; the message names the configured one.
    expect(await refusal({ roles: ['teacher'], school_ids: [1] }, { scopeClaims: { schoolIds: 'tidemark.school_ids' } })).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('tidemark.school_ids'),
    });
  });

  it('mints tokens under the configured names, which the same options read back', async () => {
    const options = { ...o, rolesClaim: 'realm_access.roles', scopeClaims: { schoolIds: 'tidemark.school_ids' } };
    const t = await signToken(secret, { subject: 't', roles: ['teacher'], schoolIds: [3] }, options);
    await expect(fromJwtSecret(secret, options).verify(t)).resolves.toEqual({ subject: 't', roles: ['teacher'], schoolIds: [3] });
  });
});

describe('retired and restricted roles', () => {
  it('refuses a token with only the retired client role, naming the roles that replace it', async () => {
    const err = await refusal({ roles: ['client'] });
    expect(err).toMatchObject({ code: 'FORBIDDEN' });
    for (const role of ['customer', 'teacher', 'student', 'service']) expect(err?.message).toContain(role);
    // Beside a current role, the retired one is ignored.
    await expect(verifier.verify(await sign({ roles: ['client', 'operator'] }))).resolves.toEqual({ subject: 'u-1', roles: ['operator'] });
  });

  it('honours service only for subjects in serviceSubjects', async () => {
    expect(await refusal({ roles: ['service'] }, {}, 'backend')).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('AUTH_SERVICE_SUBJECTS'),
    });
    expect(await refusal({ roles: ['service'] }, { serviceSubjects: ['other'] }, 'backend')).toMatchObject({ code: 'FORBIDDEN' });
    const listed = fromJwtSecret(secret, { ...o, serviceSubjects: ['backend'] });
    await expect(listed.verify(await sign({ roles: ['service'] }, { sub: 'backend' }))).resolves.toEqual({
      subject: 'backend',
      roles: ['service'],
    });
    // Not listed but with another role: service is dropped, the other role stays.
    await expect(listed.verify(await sign({ roles: ['service', 'analyst'] }, { sub: 'someone' }))).resolves.toEqual({
      subject: 'someone',
      roles: ['analyst'],
    });
  });
});
