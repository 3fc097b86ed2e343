// The gateway's routes beside GraphQL, mounted before it in this order: the ops endpoints (or /healthz
// alone when they live on OPS_PORT), the console, and the explorer, which answers a browser's GET of
// /graphql with its page and passes every other request on to the GraphQL route.
import type { Express } from 'express';
import { opsRouter } from '../../metrics/opsServer';
import { consoleRoutes } from '../console';
import { explorerAssets, explorerHtml } from '../explorer';
import type { GatewayOptions } from './options';

export function mountPages(app: Express, o: GatewayOptions): void {
  if (o.opsEndpoints) app.use(opsRouter({ readiness: o.services.readiness, registry: o.registry }));
  else app.get('/healthz', (_req, res) => void res.json({ status: 'alive' }));
  app.use(consoleRoutes({ development: o.development, bindHost: o.host, tokens: o.developmentTokens ?? [], rolesClaim: o.rolesClaim }));
  if (o.explorer) {
    app.use(explorerAssets());
    app.get('/graphql', (req, res, next) => {
      if (req.accepts(['html', 'json']) === 'html' && !req.query.query) res.type('html').send(explorerHtml);
      else next();
    });
  }
}
