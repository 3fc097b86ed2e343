// The key set of an identity provider, fetched from its JWKS endpoint (AUTH_JWKS_URL). jose's own
// createRemoteJWKSet (v5, Node) bounds only the wait for the response headers: an endpoint that sends
// headers and then stalls the body holds its pending fetch, and with it every verification, for ever,
// and a body of any size is read into memory. This one bounds the whole fetch (timeoutMs) and the body
// (maxBytes), and otherwise keeps jose's rules: the set is fetched again once older than cacheMaxAgeMs
// (so a key withdrawn from the endpoint stops verifying within that bound), and a token whose `kid` is
// not in the set triggers a fetch (a rotated-in key) unless the last one is younger than cooldownMs.
// One fetch at a time; callers wait on it. A failed fetch fails the verifications waiting on it
// (UNAUTHENTICATED, via tokens.ts) and leaves the last good set in place until it is stale.
import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

export interface RemoteJwksOptions {
  /** Longest one fetch may take, body included. */
  timeoutMs: number;
  /** Age after which the set is fetched again before it verifies anything. */
  cacheMaxAgeMs: number;
  /** Least time between a fetch and one triggered by an unknown `kid`. */
  cooldownMs: number;
  /** Largest JWKS body accepted (a real one is a few KiB). */
  maxBytes?: number;
}

export const JWKS_MAX_BYTES = 512 * 1024;

/** The JSON at `url`, or a jose error: not 200, larger than maxBytes, not JSON, or slower than timeoutMs. */
export function fetchJwks(url: URL, timeoutMs: number, maxBytes = JWKS_MAX_BYTES): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? httpsGet : url.protocol === 'http:' ? httpGet : undefined;
    if (!get) return reject(new TypeError('the JWKS URL must be http: or https:'));
    const fail = (err: Error) => {
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(new errors.JWKSTimeout()), timeoutMs);
    const read = (res: IncomingMessage) => {
      if (res.statusCode !== 200) return fail(new errors.JOSEError(`the JWKS endpoint answered ${res.statusCode}`));
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(new errors.JOSEError(`the JWKS response is larger than ${maxBytes} bytes`));
        parts.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')));
        } catch {
          reject(new errors.JOSEError('the JWKS response is not JSON'));
        }
      });
    };
    // fail and read run only after get returns (timer and response are asynchronous), so req is set.
    const req: ClientRequest = get(url, { headers: { accept: 'application/jwk-set+json, application/json' } }, read);
    req.on('error', fail);
  });
}

export function remoteJwks(url: URL, o: RemoteJwksOptions): JWTVerifyGetKey {
  let local: JWTVerifyGetKey | undefined;
  let fetchedAt = -Infinity;
  let pending: Promise<void> | undefined;
  const reload = () =>
    (pending ??= fetchJwks(url, o.timeoutMs, o.maxBytes)
      .then((json) => {
        // Throws JWKSInvalid on anything that is not a key set: the last good set stays.
        local = createLocalJWKSet(json as JSONWebKeySet) as JWTVerifyGetKey;
        fetchedAt = Date.now();
      })
      .finally(() => (pending = undefined)));
  return async (header, token) => {
    if (!local || Date.now() - fetchedAt >= o.cacheMaxAgeMs) await reload();
    try {
      return await local!(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey) || Date.now() - fetchedAt < o.cooldownMs) throw err;
      await reload();
      return local!(header, token);
    }
  };
}
