// The gateway's Apollo server: the schema with its depth, cost and token limits, the request id and
// tracing plugins, the request-duration histogram, and the drain order `stop()` relies on (HTTP
// connections first, then the WebSocket server's subscriptions).
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { Histogram, Registry } from 'prom-client';
import { histogram } from '../../metrics/registry';
import type { GatewayContext } from '../context';
import { costLimitPlugin, depthRule } from '../limits';
import { requestIdPlugin } from '../requestId';
import { operationLabel, operationSpanPlugin } from '../requestTracing';
import type { GatewayOptions } from './options';

type RequestDuration = Histogram<'operation' | 'outcome'>;

/** Registered before admission's metrics, as it always was, so /metrics lists them in the same order. */
export function requestDurationHistogram(registry: Registry): RequestDuration {
  return histogram(registry, {
    name: 'tidemark_graphql_request_duration_seconds',
    help: 'GraphQL request duration by operation (type and root field, e.g. "mutation placeOrder"; "other" when unparsed) and outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
}

/** Subscriptions close when Apollo drains, after the HTTP server stopped accepting (the plugin before it). */
function drainWebSocketsPlugin(webSockets: { dispose(): void | Promise<void> }): ApolloServerPlugin<GatewayContext> {
  return {
    async serverWillStart() {
      return {
        drainServer: async () => {
          await webSockets.dispose();
        },
      };
    },
  };
}

function requestDurationPlugin(duration: RequestDuration, schema: GraphQLSchema): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      const end = duration.startTimer();
      return {
        async willSendResponse(rc) {
          end({ operation: operationLabel(rc.operation, schema), outcome: rc.errors?.length ? 'error' : 'ok' });
        },
      };
    },
  };
}

/** Builds the Apollo server over `httpServer` and starts it (it serves once mounted as middleware). */
export async function startApolloServer(
  o: GatewayOptions,
  parts: {
    httpServer: Server;
    formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
    webSockets: { dispose(): void | Promise<void> };
    duration: RequestDuration;
  },
): Promise<ApolloServer<GatewayContext>> {
  const apollo = new ApolloServer<GatewayContext>({
    schema: o.schema,
    introspection: o.introspection,
    // main.ts owns SIGTERM/SIGINT (drain every role, then exit). Apollo's own handlers (on unless NODE_ENV=test,
    // so in the image) stop it and re-send the signal, which main.ts took for a second one: exit 130 mid-drain.
    stopOnTerminationSignals: false,
    // The parser stops at the token limit (documents were already held to it by admission; WebSocket too).
    parseOptions: { maxTokens: o.admission.document.maxTokens },
    includeStacktraceInErrorResponses: o.development,
    formatError: parts.formatError,
    validationRules: [depthRule(o.limits.maxDepth)],
    plugins: [
      costLimitPlugin(o.schema, o.limits.maxCost, o.limits.maxPageSize),
      requestIdPlugin,
      operationSpanPlugin,
      ApolloServerPluginDrainHttpServer({ httpServer: parts.httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      drainWebSocketsPlugin(parts.webSockets),
      requestDurationPlugin(parts.duration, o.schema),
    ],
  });
  await apollo.start();
  return apollo;
}
