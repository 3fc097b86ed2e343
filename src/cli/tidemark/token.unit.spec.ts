// `tidemark token` arguments: lifetimes, roles (the retired client named as such) and --claim values
// typed per the contract; a scoped role without its claim is refused before anything is minted (fail
// closed), the claims are written under the names the gateway reads, and `service` comes with a warning.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentSecretFile, withDevelopmentSecret } from '../../auth/developmentTokens';
import { jwtOptionsOf } from '../../auth/jwtOptions';
import { fromJwtSecret } from '../../auth/tokens';
import { loadSettings } from '../../config/settings';
import { mintRequestedToken, parseClaim, parseRole, parseTtl, tokenPrincipal } from './token';

describe('tidemark token', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tidemark-token-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('parses token lifetimes, roles and claims', () => {
    expect([parseTtl('90'), parseTtl('90s'), parseTtl('30m'), parseTtl('1h'), parseTtl('7d')]).toEqual([90, 90, 1800, 3600, 604800]);
    for (const bad of ['0', '1y', '-1h', 'soon', '400d']) expect(() => parseTtl(bad)).toThrow(/duration/);
    expect(parseRole('analyst', parseRole('teacher'))).toEqual(['teacher', 'analyst']);
    expect(() => parseRole('admin')).toThrow(/one of/);
    expect(() => parseRole('client')).toThrow(/client role is retired.*one of customer, teacher, student, analyst, operator, service/);
    expect(parseClaim('user_id=7', parseClaim('customer_id=c-42', parseClaim('school_ids=11, 12')))).toEqual({
      school_ids: [11, 12],
      customer_id: 'c-42',
      user_id: 7,
    });
    for (const bad of ['school_ids=', 'school_ids=x', 'school_ids=1,,2', 'school_ids=0', 'school_ids=1.5', 'school_ids=-3'])
      expect(() => parseClaim(bad)).toThrow(/school_ids is a comma list/);
    for (const bad of ['user_id=seven', 'user_id=0', 'user_id=7,8', 'user_id=99999999999'])
      expect(() => parseClaim(bad)).toThrow(/user_id is a positive integer/);
    expect(() => parseClaim('customer_id=')).toThrow(/customer_id is a string/);
    expect(() => parseClaim('tenant=1')).toThrow(/customer_id, school_ids, user_id/);
    expect(() => parseClaim('user_id=8', { user_id: 7 })).toThrow(/given twice/);
  });

  it('refuses, before minting, a scoped role without its claim and a claim no role reads', async () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: join(dir, 'stack') });
    for (const [role, hint] of [
      ['teacher', '--claim school_ids=11,12'],
      ['customer', '--claim customer_id=c-42'],
      ['student', '--claim user_id=7'],
    ] as const) {
      const err = await mintRequestedToken(s, { roles: [role], ttlSeconds: 60 }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(`the ${role} role needs its`);
      expect(err?.message).toContain(`add ${hint}`);
    }
    await expect(mintRequestedToken(s, { roles: ['operator'], claims: { user_id: 7 }, ttlSeconds: 60 })).rejects.toThrow(
      '--claim user_id is read only for the student role',
    );
    // Refused before the secret is even looked for: nothing was written to STACK_DIR.
    expect(() => statSync(developmentSecretFile({ stackDir: join(dir, 'stack') }))).toThrow();
  });

  it('mints scoped tokens the gateway reads back, under the claim names it is configured with', async () => {
    const env = {
      TIDEMARK_ENV: 'development',
      STACK_DIR: join(dir, 'stack'),
      AUTH_SCHOOL_IDS_CLAIM: 'https://x/claims.school_ids',
      AUTH_ROLES_CLAIM: 'realm_access.roles',
    };
    const s = withDevelopmentSecret(loadSettings(env));
    const gateway = fromJwtSecret(s.authJwtSecret!, jwtOptionsOf(s));
    const teacher = await mintRequestedToken(s, { roles: ['teacher'], claims: { school_ids: [12, 11] }, ttlSeconds: 60 });
    await expect(gateway.verify(teacher)).resolves.toEqual({ subject: 'cli-teacher', roles: ['teacher'], schoolIds: [11, 12] });
    const student = await mintRequestedToken(s, { roles: ['student'], claims: { user_id: 7 }, subject: 'pupil', ttlSeconds: 60 });
    await expect(gateway.verify(student)).resolves.toEqual({ subject: 'pupil', roles: ['student'], userId: 7 });
    const customer = await mintRequestedToken(s, { roles: ['customer'], claims: { customer_id: 'c-42' }, ttlSeconds: 60 });
    await expect(gateway.verify(customer)).resolves.toEqual({ subject: 'cli-customer', roles: ['customer'], customerId: 'c-42' });
  });

  it('mints service with a warning naming AUTH_SERVICE_SUBJECTS', async () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development', STACK_DIR: join(dir, 'stack'), AUTH_SERVICE_SUBJECTS: 'billing' });
    expect(tokenPrincipal(s, { roles: ['service'], ttlSeconds: 60 }).warnings).toEqual([
      expect.stringMatching(/AUTH_SERVICE_SUBJECTS; cli-service is not listed in this environment/),
    ]);
    expect(tokenPrincipal(s, { roles: ['service'], subject: 'billing', ttlSeconds: 60 }).warnings).toEqual([
      expect.stringMatching(/billing is listed here/),
    ]);
    const warnings: string[] = [];
    const token = await mintRequestedToken(s, { roles: ['service'], subject: 'billing', ttlSeconds: 60 }, (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    const gateway = fromJwtSecret(withDevelopmentSecret(s).authJwtSecret!, jwtOptionsOf(s));
    await expect(gateway.verify(token)).resolves.toEqual({ subject: 'billing', roles: ['service'] });
    expect(tokenPrincipal(s, { roles: ['operator'], ttlSeconds: 60 }).warnings).toEqual([]);
  });
});
