// The early refusal at the GraphQL edge: which access level (@Authorized) each role may ask for at all,
// as the domains' policies answer it, and how authChecker turns a missing, invalid or insufficient
// token into UNAUTHENTICATED or FORBIDDEN. Which rows a caller may touch is the services' business.
import type { Principal, Role } from '../auth/principal';
import { fromJwtSecret, signToken } from '../auth/tokens';
import { authChecker, authenticate, mayAccess, type AccessLevel } from './auth';
import type { GatewayContext } from './context';

const secret = 'unit-test-secret-0123456789abcdefghij';
const o = { issuer: 'tidemark', audience: 'tidemark-gateway' };
const verifier = fromJwtSecret(secret, { ...o, serviceSubjects: ['backend'] });

const PRINCIPALS: { [R in Role]: Principal } = {
  customer: { subject: 'c', roles: ['customer'], customerId: 'c-42' },
  teacher: { subject: 't', roles: ['teacher'], schoolIds: [11, 12] },
  student: { subject: 's', roles: ['student'], userId: 7 },
  analyst: { subject: 'a', roles: ['analyst'] },
  operator: { subject: 'o', roles: ['operator'] },
  service: { subject: 'backend', roles: ['service'] },
};

const LEVELS: AccessLevel[] = [
  'fitness:read',
  'fitness:write',
  'fitness:report',
  'orders:read',
  'orders:write',
  'orders:report',
  'operate',
];

// One row per role, one column per level of LEVELS.
const MATRIX: { [R in Role]: boolean[] } = {
  customer: [false, false, false, true, true, false, false],
  teacher: [true, true, true, false, false, false, false],
  student: [true, false, false, false, false, false, false],
  analyst: [false, false, true, false, false, true, false],
  operator: [true, true, true, true, true, true, true],
  service: [true, true, true, true, true, true, false],
};

describe('mayAccess', () => {
  it.each(Object.keys(MATRIX) as Role[])('answers the levels of a %s', (role) => {
    expect(Object.fromEntries(LEVELS.map((l) => [l, mayAccess(PRINCIPALS[role], l)]))).toEqual(
      Object.fromEntries(LEVELS.map((l, i) => [l, MATRIX[role][i]])),
    );
  });

  it('gives an analyst limited to schools the same levels as any analyst', () => {
    const scoped = { ...PRINCIPALS.analyst, schoolIds: [3] };
    expect(LEVELS.map((l) => mayAccess(scoped, l))).toEqual(MATRIX.analyst);
  });

  it('adds up the levels of several roles', () => {
    const both = { subject: 'x', roles: ['teacher', 'analyst'] as Role[], schoolIds: [1] };
    expect(LEVELS.map((l) => mayAccess(both, l))).toEqual(LEVELS.map((_, i) => MATRIX.teacher[i]! || MATRIX.analyst[i]!));
  });
});

describe('authChecker', () => {
  const ctx = (auth: GatewayContext['auth']) => ({ context: { auth } as GatewayContext, root: {}, args: {}, info: {} as never });
  const auth = async (p: Principal) => authenticate(verifier, `Bearer ${await signToken(secret, p, o)}`);

  it('raises UNAUTHENTICATED without a principal or with an invalid token', async () => {
    expect(() => authChecker(ctx({}), ['fitness:write'])).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    const bad = await authenticate(verifier, 'Bearer not.a.real-token');
    expect(() => authChecker(ctx(bad), ['fitness:read'])).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });

  it('raises FORBIDDEN for a role without the level, and lets a role with one of the levels through', async () => {
    const analyst = await auth(PRINCIPALS.analyst);
    expect(() => authChecker(ctx(analyst), ['fitness:write'])).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(authChecker(ctx(analyst), ['fitness:report'])).toBe(true);
    expect(authChecker(ctx(analyst), ['operate', 'orders:report'])).toBe(true);
    const teacher = await auth(PRINCIPALS.teacher);
    expect(authChecker(ctx(teacher), ['fitness:write'])).toBe(true);
    expect(() => authChecker(ctx(teacher), ['operate'])).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('passes on the FORBIDDEN of a token whose roles cannot be honoured, naming why', async () => {
    const unscopedTeacher = await auth({ subject: 't', roles: ['teacher'] });
    expect(() => authChecker(ctx(unscopedTeacher), ['fitness:read'])).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: expect.stringContaining('school_ids') }),
    );
    const otherService = await auth({ subject: 'not-listed', roles: ['service'] });
    expect(() => authChecker(ctx(otherService), ['fitness:read'])).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: expect.stringContaining('AUTH_SERVICE_SUBJECTS') }),
    );
    expect(authChecker(ctx(await auth(PRINCIPALS.service)), ['orders:write'])).toBe(true);
  });
});
