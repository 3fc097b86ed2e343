// How the command line reaches a running gateway: its GraphQL URL from --url, TIDEMARK_URL, else the
// local gateway of these settings; its token from --token, TIDEMARK_TOKEN, else (development only) a
// short-lived operator token minted with the development secret kept in STACK_DIR.
import { loadSettings, localToolEnv, type Settings } from '../../config/settings';
import { mintRequestedToken } from './token';

export interface GatewayConnection {
  url: string;
  authorization: string;
}

export interface ConnectionOptions {
  url?: string;
  token?: string;
}

/** The gateway these settings would start locally (a wildcard bind address is reached on loopback). */
export function localGatewayUrl(s: Pick<Settings, 'httpHost' | 'httpPort'>): string {
  const host = ['0.0.0.0', '::', ''].includes(s.httpHost) ? '127.0.0.1' : s.httpHost.includes(':') ? `[${s.httpHost}]` : s.httpHost;
  return `http://${host}:${s.httpPort}/graphql`;
}

export async function connect(o: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConnection> {
  const settings = loadSettings(localToolEnv(env));
  const url = o.url ?? env.TIDEMARK_URL ?? localGatewayUrl(settings);
  let token = o.token ?? env.TIDEMARK_TOKEN;
  if (!token) {
    if (settings.env !== 'development' || settings.authJwksUrl)
      throw new Error('no token: pass --token or set TIDEMARK_TOKEN (an operator token)');
    token = await mintRequestedToken(settings, { roles: ['operator'], ttlSeconds: 300, subject: 'cli-operator' });
  }
  return { url, authorization: `Bearer ${token}` };
}

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; requestId?: string } }[];
}

/** Runs one operation; a GraphQL error becomes an Error naming its code and request id. */
export async function call<T>(c: GatewayConnection, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(c.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: c.authorization },
      body: JSON.stringify({ query, variables }),
    });
  } catch (err) {
    const why = (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new Error(`cannot reach the gateway at ${c.url} (${why}); is it running? (--url or TIDEMARK_URL)`);
  }
  let answer: GraphQLAnswer<T>;
  try {
    answer = (await res.json()) as GraphQLAnswer<T>;
  } catch {
    throw new Error(`${c.url} answered HTTP ${res.status} without a GraphQL response; is it a Tidemark gateway?`);
  }
  if (answer.errors?.length) {
    const e = answer.errors[0]!;
    const id = e.extensions?.requestId ? ` (request ${e.extensions.requestId})` : '';
    throw new Error(`${e.extensions?.code ?? 'ERROR'}: ${e.message}${id}`);
  }
  return answer.data as T;
}
