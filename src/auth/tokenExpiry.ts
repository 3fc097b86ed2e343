// When a bearer token expires, read from its `exp` in one place: the token cache never keeps a token
// past it (cachedVerifier.ts), and a WebSocket is closed at it (src/graphql/websocket.ts), so both
// agree on the instant. Only for a token already verified: decoding checks no signature, and only a
// verified token's claims are authentic.
import { decodeJwt } from 'jose';

/** When a verified token expires (epoch ms); undefined when it carries no `exp`. */
export function tokenExpiresAtMs(verifiedToken: string): number | undefined {
  const exp = decodeJwt(verifiedToken).exp;
  return exp === undefined ? undefined : exp * 1000;
}
