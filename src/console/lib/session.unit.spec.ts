import { capabilitiesOf, sessionFromToken } from './session';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const token = (payload: object) => `${b64({ alg: 'HS256' })}.${b64(payload)}.c2lnbmF0dXJl`;
const NOW = Date.UTC(2026, 0, 1);

describe('console session', () => {
  it('reads subject, roles and expiry from a pasted token, with or without "Bearer "', () => {
    const t = token({ sub: 'ops-1', roles: ['operator'], exp: NOW / 1000 + 60 });
    expect(sessionFromToken(`  Bearer ${t}\n`, NOW)).toEqual({ token: t, subject: 'ops-1', roles: ['operator'], expiresAt: NOW + 60000 });
    expect(sessionFromToken(t, NOW).token).toBe(t);
  });

  it('refuses what is not a token, carries no Tidemark role, or has expired, with a sentence', () => {
    expect(() => sessionFromToken('hello', NOW)).toThrow('not a bearer token');
    expect(() => sessionFromToken('a.%%%.c', NOW)).toThrow('not a bearer token');
    expect(() => sessionFromToken(`${b64({})}.bm90IGpzb24.x`, NOW)).toThrow('cannot be read');
    expect(() => sessionFromToken(token({ sub: 'x', roles: ['admin'] }), NOW)).toThrow('no Tidemark role');
    expect(() => sessionFromToken(token({ sub: 'x', roles: ['analyst'], exp: NOW / 1000 - 1 }), NOW)).toThrow('expired');
  });

  it('grants pages like the gateway: operator everything, analyst reports, client nothing', () => {
    expect(capabilitiesOf(['operator'])).toEqual({ operate: true, report: true });
    expect(capabilitiesOf(['analyst'])).toEqual({ operate: false, report: true });
    expect(capabilitiesOf(['client'])).toEqual({ operate: false, report: false });
  });
});
