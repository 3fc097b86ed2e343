// The web console's static files (built by `npm run build` from src/console into dist/console) at
// /console, its configuration (/console/config.json: the claim holding a token's roles, so the console
// reads them where the gateway does), and, in development on a loopback address only, the development
// tokens for its sign-in page. The console holds no data of its own: every view is a GraphQL request
// with the user's token.
import express, { type Request, type Router } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DevelopmentToken } from '../auth/developmentTokens';
import { isLoopbackAddress, isLoopbackHost } from '../config/productionSafety';
import { repoRoot } from '../config/paths';

export const consoleDir = join(repoRoot, 'dist', 'console');

// Scripts and styles come from this origin only (Recharts sets inline style attributes); the page talks
// to this origin only (HTTP and WebSocket); it may not be framed.
const CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

// The loopback tests live with the settings (development mode refuses other bind addresses).
export { isLoopbackAddress, isLoopbackHost } from '../config/productionSafety';

export interface ConsoleOptions {
  development: boolean;
  /** The address the gateway binds. */
  bindHost: string;
  /** Offered to the sign-in page (development mode with CONSOLE_DEV_TOKENS, loopback only; else empty). */
  tokens: readonly DevelopmentToken[];
  /** AUTH_ROLES_CLAIM: where tokens carry their roles (default `roles`). */
  rolesClaim?: string;
}

/** What the console needs to read a token as the gateway does; nothing secret. */
export function consoleConfig(o: Pick<ConsoleOptions, 'rolesClaim'>): { rolesClaim: string } {
  return { rolesClaim: o.rolesClaim ?? 'roles' };
}

/** True when this request may see development tokens: development mode, loopback everywhere. */
export function mayOfferDevelopmentTokens(
  o: Pick<ConsoleOptions, 'development' | 'bindHost'>,
  req: Pick<Request, 'headers' | 'socket'>,
): boolean {
  return o.development && isLoopbackHost(o.bindHost) && isLoopbackAddress(req.socket.remoteAddress) && isLoopbackHost(req.headers.host);
}

export function consoleRoutes(o: ConsoleOptions): Router {
  const r = express.Router();
  r.use('/console', (_req, res, next) => {
    res.set({ 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    next();
  });
  r.get('/console/config.json', (_req, res) => void res.set('cache-control', 'no-cache').json(consoleConfig(o)));
  r.get('/console/dev-tokens', (req, res) => {
    const offered = mayOfferDevelopmentTokens(o, req) ? o.tokens : [];
    if (!offered.length) return void res.status(404).json({ error: 'not available' });
    res.set('cache-control', 'no-store').json({ tokens: offered });
  });
  r.get('/console', (req, res, next) => (req.originalUrl === '/console' ? res.redirect(301, '/console/') : next()));
  // Hashed asset names change with their content: cache them for long; index.html is always revalidated.
  r.use('/console/assets', express.static(join(consoleDir, 'assets'), { immutable: true, maxAge: '365d' }));
  r.get('/console/', (_req, res) => {
    const index = join(consoleDir, 'index.html');
    if (!existsSync(index))
      return void res.status(503).type('text').send('The console is not built on this machine: run `npm run build` (npm start does).\n');
    res.set('cache-control', 'no-cache').sendFile(index);
  });
  return r;
}
