// The console's reading of a pasted token: where the gateway says the roles are (AUTH_ROLES_CLAIM, an
// exact claim name first, else a dotted path), which pages each role gets, and the gateway's config.
import { capabilitiesOf, claimAt, loadConsoleConfig, sessionFromToken, type ConsoleRole } from './session';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const token = (payload: object) => `${b64({ alg: 'HS256' })}.${b64(payload)}.c2lnbmF0dXJl`;
const NOW = Date.UTC(2026, 0, 1);

describe('console session', () => {
  it('reads subject, roles and expiry from a pasted token, with or without "Bearer "', () => {
    const t = token({ sub: 'ops-1', roles: ['operator'], exp: NOW / 1000 + 60 });
    expect(sessionFromToken(`  Bearer ${t}\n`, NOW)).toEqual({ token: t, subject: 'ops-1', roles: ['operator'], expiresAt: NOW + 60000 });
    expect(sessionFromToken(t, NOW).token).toBe(t);
    const teacher = token({ sub: 't', roles: ['teacher', 'offline_access'], school_ids: [1] });
    expect(sessionFromToken(teacher, NOW).roles).toEqual(['teacher']);
  });

  it('refuses what is not a token, carries no Tidemark role, or has expired, with a sentence', () => {
    expect(() => sessionFromToken('hello', NOW)).toThrow('not a bearer token');
    expect(() => sessionFromToken('a.%%%.c', NOW)).toThrow('not a bearer token');
    expect(() => sessionFromToken(`${b64({})}.bm90IGpzb24.x`, NOW)).toThrow('cannot be read');
    expect(() => sessionFromToken(`${b64({})}.${b64([1])}.x`, NOW)).toThrow('cannot be read');
    expect(() => sessionFromToken(token({ sub: 'x', roles: ['admin'] }), NOW)).toThrow('no Tidemark role');
    expect(() => sessionFromToken(token({ sub: 'x', roles: ['client'] }), NOW)).toThrow('retired client role');
    expect(() => sessionFromToken(token({ sub: 'x', roles: ['analyst'], exp: NOW / 1000 - 1 }), NOW)).toThrow('expired');
  });

  it('reads the roles where the gateway is configured to: a namespaced claim name, or a dotted path', () => {
    const auth0 = { rolesClaim: 'https://tidemark.example.com/roles' };
    const keycloak = { rolesClaim: 'realm_access.roles' };
    expect(sessionFromToken(token({ sub: 'a', 'https://tidemark.example.com/roles': ['analyst'] }), NOW, auth0).roles).toEqual(['analyst']);
    expect(sessionFromToken(token({ sub: 'o', realm_access: { roles: ['uma_authorization', 'operator'] } }), NOW, keycloak).roles).toEqual([
      'operator',
    ]);
    // The default `roles` claim is not consulted once another is configured; the message names the claim.
    expect(() => sessionFromToken(token({ sub: 'o', roles: ['operator'] }), NOW, keycloak)).toThrow('in its realm_access.roles claim');
    expect(claimAt({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toBe(1);
    expect(claimAt({ a: { b: 2 } }, 'a.b')).toBe(2);
    expect(claimAt({ a: 'x' }, 'a.b')).toBeUndefined();
  });

  it('grants pages like the gateway: operator everything, analyst reports, the other roles nothing', () => {
    expect(capabilitiesOf(['operator'])).toEqual({ operate: true, report: true });
    expect(capabilitiesOf(['analyst'])).toEqual({ operate: false, report: true });
    for (const role of ['customer', 'teacher', 'student', 'service'] as ConsoleRole[])
      expect(capabilitiesOf([role])).toEqual({ operate: false, report: false });
    expect(capabilitiesOf(['teacher', 'analyst'])).toEqual({ operate: false, report: true });
  });

  it('loads the roles claim from the gateway, and falls back to `roles` when it cannot', async () => {
    const answer = (status: number, body: unknown) => (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;
    await expect(loadConsoleConfig(answer(200, { rolesClaim: 'realm_access.roles' }))).resolves.toEqual({
      rolesClaim: 'realm_access.roles',
    });
    await expect(loadConsoleConfig(answer(404, { error: 'not found' }))).resolves.toEqual({ rolesClaim: 'roles' });
    await expect(loadConsoleConfig(answer(200, { rolesClaim: 3 }))).resolves.toEqual({ rolesClaim: 'roles' });
    await expect(loadConsoleConfig((() => Promise.reject(new Error('offline'))) as typeof fetch)).resolves.toEqual({ rolesClaim: 'roles' });
  });
});
