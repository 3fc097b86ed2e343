// A local identity provider's JWKS endpoint for e2e tests: key pairs made with jose, their public
// halves served over HTTP on an ephemeral port, and tokens signed with any of them. `serve` changes
// what the endpoint answers: the key set (rotation), an error status, garbage, the last key set padded
// to a huge body, or headers followed by a body that never ends (held until close()).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK, type KeyLike } from 'jose';
import type { Settings } from '../../src/config/settings';

export interface IdpKey {
  kid: string;
  alg: 'RS256' | 'ES256' | 'EdDSA';
  privateKey: KeyLike;
  publicKey: KeyLike;
  jwk: JWK;
}

export type JwksMode = { keys: IdpKey[] } | 'unavailable' | 'garbage' | 'huge' | 'stalled';

export async function idpKey(kid: string, alg: IdpKey['alg']): Promise<IdpKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, alg === 'EdDSA' ? { crv: 'Ed25519' } : {});
  // No `alg` member: the key must be refused for other algorithms by the gateway's pin, not by the JWK.
  return { kid, alg, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig' } };
}

export interface JwksServer {
  url: string;
  /** Requests the endpoint has answered (or started to). */
  fetches: number;
  serve(mode: JwksMode): void;
  close(): Promise<void>;
}

export async function startJwksServer(initial: JwksMode): Promise<JwksServer> {
  let mode = initial;
  let lastKeys = typeof initial === 'object' ? initial.keys : [];
  const held = new Set<ServerResponse>();
  const out = {
    url: '',
    fetches: 0,
    serve: (m: JwksMode) => {
      mode = m;
      if (typeof m === 'object') lastKeys = m.keys;
    },
    close: async () => {},
  };
  const server: Server = createServer((_req, res) => {
    out.fetches++;
    if (mode === 'unavailable') return res.writeHead(503).end('down for maintenance');
    if (mode === 'garbage') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": "not a list", "x": [1, 2');
    if (mode === 'huge') {
      // The last key set served, padded to 4 MiB of valid JSON: far past what any identity provider serves.
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ keys: lastKeys.map((k) => k.jwk), pad: 'x'.repeat(4 * 1024 * 1024) }));
    }
    if (mode === 'stalled') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys": [');
      held.add(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: mode.keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  out.close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return out;
}

/** A token for the test environment's issuer and audience, signed with `key` under its kid (or `header`'s). */
export function idpToken(
  s: Settings,
  key: { alg: string; kid?: string; privateKey: KeyLike | Uint8Array },
  claims: { sub: string; roles: string[]; [claim: string]: unknown },
): Promise<string> {
  const { sub, ...rest } = claims;
  return new SignJWT(rest)
    .setProtectedHeader({ alg: key.alg, typ: 'JWT', ...(key.kid ? { kid: key.kid } : {}) })
    .setSubject(sub)
    .setIssuer(s.authIssuer)
    .setAudience(s.authAudience)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key.privateKey);
}
