// One span per GraphQL request (HTTP), continuing a caller's W3C traceparent when it sends one, made
// the active context for everything the request does (resolvers, the transaction, the direct Kafka
// send), and named after the operation once Apollo has parsed it: `mutation recordFitnessResult`.
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { RequestHandler } from 'express';
import { tracer, tracingEnabled } from '../shared/tracing';

export function traceGraphQLRequests(): RequestHandler {
  return (req, res, next) => {
    if (!tracingEnabled()) return next();
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan('graphql', { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, parent);
    res.once('finish', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * What an operation is, in a bounded vocabulary: its type and first root field (`mutation
 * recordFitnessResult`), which the schema bounds, unlike the operation name a client picks. `other`
 * when the request never got as far as a parsed operation.
 */
export function operationLabel(operation: OperationDefinitionNode | undefined | null, schema?: GraphQLSchema): string {
  if (!operation) return 'other';
  const field = operation.selectionSet.selections.find((s) => s.kind === 'Field');
  const name = field && field.kind === 'Field' ? field.name.value : undefined;
  const root =
    schema &&
    (operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType());
  if (!name || (schema && !(name.startsWith('__') || root?.getFields()[name]))) return 'other';
  return `${operation.operation} ${name}`;
}

/** Names the request's span after its operation (operationLabel). */
export const operationSpanPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation(rc) {
        const span = trace.getActiveSpan();
        if (!span || !rc.operation) return;
        const label = operationLabel(rc.operation, rc.schema);
        const root = label.split(' ')[1] ?? 'other';
        span.updateName(label);
        span.setAttributes({
          'graphql.operation.type': rc.operation.operation,
          'graphql.operation.name': rc.operationName ?? '',
          'graphql.root_field': root,
        });
      },
      async didEncounterErrors(rc) {
        trace.getActiveSpan()?.setStatus({
          code: SpanStatusCode.ERROR,
          message: rc.errors[0]?.extensions?.code === undefined ? 'error' : String(rc.errors[0].extensions.code),
        });
      },
    };
  },
};
