// What every resolver receives. Domain services are attached by the composition root (src/app);
// resolvers never open connections themselves.
import type { Logger } from '../shared/logger';
import type { Readiness } from '../app/readiness';
import type { Authentication } from './auth';

/** Services the gateway exposes; each domain adds its own field as it lands. */
export interface GatewayServices {
  readiness: () => Promise<Readiness>;
  instanceId: string;
  roles: string[];
  version: string;
}

export interface GatewayContext {
  requestId: string;
  /** Who is calling (resolved once per request / WebSocket connection). */
  auth: Authentication;
  logger: Logger;
  services: GatewayServices;
}
