// The gateway under test: a child process on the row's private environment, a bearer token per role,
// and a keep-alive GraphQL client in the bench process. `operations()` lists the root fields the
// running schema has, so a row whose path is not built yet reports "n/a (not built)".
import type { Principal, Role } from '../../src/auth/principal';
import { mintToken } from '../../src/auth/developmentTokens';
import type { Settings } from '../../src/config/settings';
import { childEnvFor } from './benchEnv';
import { graphqlClient, type GraphQLClient } from './graphqlHttp';
import { startGatewayProcess, type GatewayProcess } from './processes';

/** The subject of bench-service tokens; childEnvFor lists it in AUTH_SERVICE_SUBJECTS. */
export const BENCH_SERVICE_SUBJECT = 'bench-service';

/** A token the gateway under test accepts: minted the one way Tidemark mints (its claim names, issuer, audience). */
export async function bearerFor(s: Settings, p: Principal): Promise<string> {
  return `Bearer ${await mintToken(s, p, 3600)}`;
}

export async function bearer(s: Settings, ...roles: Role[]): Promise<string> {
  return bearerFor(s, { subject: `bench-${roles.join('-')}`, roles });
}

export interface GatewayUnderTest {
  process: GatewayProcess;
  client(role: Role, maxSockets: number): Promise<GraphQLClient>;
  /** A client with a scoped principal's token (a teacher's school_ids, a customer's customer_id). */
  clientFor(p: Principal, maxSockets: number): Promise<GraphQLClient>;
  /** Root fields of the running schema: Query, Mutation and Subscription. */
  operations(): Promise<{ query: Set<string>; mutation: Set<string>; subscription: Set<string> }>;
  stop(): Promise<void>;
}

export async function startGatewayUnderTest(
  s: Settings,
  o: { name?: string; roles?: string; env?: Record<string, string>; cpuProfDir?: string } = {},
): Promise<GatewayUnderTest> {
  const proc = await startGatewayProcess({
    name: o.name ?? 'gateway',
    roles: o.roles,
    env: childEnvFor(s, o.env),
    cpuProfDir: o.cpuProfDir,
  });
  const clients: GraphQLClient[] = [];
  return {
    process: proc,
    async client(role, maxSockets) {
      const c = graphqlClient(proc.url, { maxSockets, authorization: await bearer(s, role) });
      clients.push(c);
      return c;
    },
    async clientFor(p, maxSockets) {
      const c = graphqlClient(proc.url, { maxSockets, authorization: await bearerFor(s, p) });
      clients.push(c);
      return c;
    },
    async operations() {
      // An operator's token: the gateway refuses anonymous requests before it reads them.
      const c = graphqlClient(proc.url, { maxSockets: 1, authorization: await bearer(s, 'operator') });
      try {
        const names = (t: { fields: { name: string }[] } | null) => new Set((t?.fields ?? []).map((f) => f.name));
        const d = await c.request<{
          __schema: {
            queryType: { fields: { name: string }[] } | null;
            mutationType: { fields: { name: string }[] } | null;
            subscriptionType: { fields: { name: string }[] } | null;
          };
        }>('{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }');
        return {
          query: names(d.__schema.queryType),
          mutation: names(d.__schema.mutationType),
          subscription: names(d.__schema.subscriptionType),
        };
      } finally {
        c.close();
      }
    },
    async stop() {
      for (const c of clients) c.close();
      await proc.stop();
    },
  };
}
