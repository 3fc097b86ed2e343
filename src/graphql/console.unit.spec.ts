// The console's routes: development tokens only in development, bound to loopback, to a loopback peer
// naming a loopback host; the console's configuration (the roles claim; served to anyone, tested in
// test/e2e/console.e2e.spec.ts).
import { consoleConfig, isLoopbackAddress, isLoopbackHost, mayOfferDevelopmentTokens } from './console';

const req = (remoteAddress: string, host: string) => ({ socket: { remoteAddress }, headers: { host } }) as never;

describe('console development tokens: loopback only', () => {
  it('recognises loopback addresses and Host headers', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', '0.0.0.0', '', undefined]) expect(isLoopbackAddress(a)).toBe(false);
    for (const h of ['127.0.0.1:4000', 'localhost:4000', 'localhost', '[::1]:4000']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['attacker.example', 'attacker.example:4000', '127.0.0.1.nip.io:4000', '[2001:db8::1]:4000', undefined])
      expect(isLoopbackHost(h)).toBe(false);
  });

  it('offers tokens only in development, bound to loopback, to a loopback peer naming a loopback host', () => {
    const dev = { development: true, bindHost: '127.0.0.1' };
    expect(mayOfferDevelopmentTokens(dev, req('127.0.0.1', '127.0.0.1:4000'))).toBe(true);
    expect(mayOfferDevelopmentTokens({ ...dev, development: false }, req('127.0.0.1', '127.0.0.1:4000'))).toBe(false);
    expect(mayOfferDevelopmentTokens({ ...dev, bindHost: '0.0.0.0' }, req('127.0.0.1', '127.0.0.1:4000'))).toBe(false);
    expect(mayOfferDevelopmentTokens(dev, req('10.1.2.3', '127.0.0.1:4000'))).toBe(false);
    // DNS rebinding: a page from another origin whose name resolves to 127.0.0.1.
    expect(mayOfferDevelopmentTokens(dev, req('127.0.0.1', 'attacker.example:4000'))).toBe(false);
  });
});

describe('console configuration', () => {
  it('tells the console which claim holds the roles (AUTH_ROLES_CLAIM), `roles` by default', () => {
    expect(consoleConfig({})).toEqual({ rolesClaim: 'roles' });
    expect(consoleConfig({ rolesClaim: 'realm_access.roles' })).toEqual({ rolesClaim: 'realm_access.roles' });
  });
});
