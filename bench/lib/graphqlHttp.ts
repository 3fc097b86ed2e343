// GraphQL over HTTP from the benchmark process: node:http with a keep-alive agent sized to the
// load's concurrency (one socket per worker, reused), so the client side adds as little as possible
// to what is measured. Errors in the GraphQL response reject with their extension code only.
import http from 'node:http';

export interface GraphQLClient {
  request<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<T>;
  close(): void;
}

export class GraphQLResponseError extends Error {
  constructor(
    readonly codes: string[],
    readonly status: number,
  ) {
    super(`GraphQL errors: ${codes.join(', ') || `HTTP ${status}`}`);
    this.name = 'GraphQLResponseError';
  }
}

export function graphqlClient(url: string, opts: { maxSockets: number; authorization?: string }): GraphQLClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets, maxFreeSockets: opts.maxSockets });
  const target = new URL(url);
  return {
    request<T>(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
      const body = Buffer.from(JSON.stringify({ query, variables }));
      return send<T>(body, headers, true);
    },
    close() {
      agent.destroy();
    },
  };

  function send<T>(body: Buffer, headers: Record<string, string>, mayRetry: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': body.length,
            ...(opts.authorization ? { authorization: opts.authorization } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            try {
              const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
                data?: T;
                errors?: { extensions?: { code?: string } }[];
              };
              if (parsed.errors?.length || !parsed.data) {
                reject(
                  new GraphQLResponseError(
                    (parsed.errors ?? []).map((e) => e.extensions?.code ?? 'UNKNOWN'),
                    res.statusCode ?? 0,
                  ),
                );
              } else resolve(parsed.data);
            } catch (err) {
              reject(err);
            }
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // The server closed an idle keep-alive socket just as we reused it: the request never
        // reached it, so sending it again on a fresh socket is safe (Node's documented pattern).
        if (mayRetry && req.reusedSocket && err.code === 'ECONNRESET') send<T>(body, headers, false).then(resolve, reject);
        else reject(err);
      });
      req.end(body);
    });
  }
}
