// The gateway's last step: listen on HOST:PORT, then hand back its URLs and a `stop()` that drains
// once (Apollo's drain: the HTTP server stops accepting and finishes in-flight requests, then the
// WebSocket server's subscriptions close), however many callers ask.
import type { ApolloServer } from '@apollo/server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayContext } from '../context';
import type { Gateway } from './options';

export async function listenGateway(
  httpServer: Server,
  at: { host: string; port: number },
  apollo: ApolloServer<GatewayContext>,
): Promise<Gateway> {
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(at.port, at.host, () => resolve());
  });
  const addr = httpServer.address() as AddressInfo;
  const base = `${addr.address}:${addr.port}`;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${base}/graphql`,
    wsUrl: `ws://${base}/graphql`,
    server: httpServer,
    stop() {
      stopped ??= apollo.stop();
      return stopped;
    },
  };
}
