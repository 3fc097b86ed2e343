// What the gateway is started with and what it hands back, apart from the steps that build it
// (src/graphql/server/*.ts) so each step can name its inputs without importing the function that
// composes them (src/graphql/server.ts), which would be an import cycle.
import type { GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from '../../shared/logger';
import type { GatewayServices } from '../context';
import type { AdmissionLimits } from '../admission/admission';
import type { TokenVerifier } from '../../auth/tokens';
import type { DevelopmentToken } from '../../auth/developmentTokens';

export interface GatewayOptions {
  schema: GraphQLSchema;
  services: GatewayServices;
  logger: Logger;
  registry: Registry;
  host: string;
  port: number;
  introspection: boolean;
  explorer: boolean;
  development: boolean;
  /** Development mode only: tokens the console's sign-in page may offer on a loopback address. */
  developmentTokens?: readonly DevelopmentToken[];
  /** AUTH_ROLES_CLAIM, told to the console so it reads a token's roles where the verifier does. */
  rolesClaim?: string;
  verifier: TokenVerifier;
  limits: { maxDepth: number; maxCost: number; maxPageSize: number };
  /** Token, rate and document limits checked before a request's work (src/graphql/admission). */
  admission: Omit<AdmissionLimits, 'bodyBytes'>;
  /** WebSocket connections per principal and operations per socket (0: unlimited). */
  webSocket: { maxConnectionsPerPrincipal: number; maxOperationsPerSocket: number };
  /** /readyz and /metrics on this port too (outside production); else /healthz only (the rest on OPS_PORT). */
  opsEndpoints: boolean;
  /** Browser origins allowed to call /graphql across origins (CORS); none when empty. */
  corsOrigins?: readonly string[];
}

/**
 * Largest GraphQL request body over HTTP, and largest WebSocket message: one limit for both transports.
 * 256 KiB: the largest real request (an operator's 1,000 ids, an order of ORDERS_MAX_ITEMS lines) is
 * tens of KiB, and a body announced larger is refused from its Content-Length before a byte is read.
 */
export const BODY_LIMIT_BYTES = 256 * 1024;

export interface Gateway {
  url: string;
  wsUrl: string;
  server: Server;
  stop(): Promise<void>;
}
