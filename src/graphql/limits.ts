// Query depth and cost limits. Depth is a validation rule (graphql-depth-limit) for HTTP and
// WebSocket alike. Cost needs the operation's variables, so it is checked after the operation is
// resolved (graphql-query-complexity): every field costs 1, a list field multiplies its children by
// the page size it asks for (`first`, else the maximum page size), fields may declare their own cost.
import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError, separateOperations, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';

export function depthRule(maxDepth: number): ValidationRule {
  const rule = depthLimit(maxDepth);
  // graphql-depth-limit follows fragment spreads recursively, so a fragment cycle (which the standard
  // NoFragmentCycles rule reports on its own) or an absurdly deep document overflows the stack.
  return (ctx) => {
    try {
      return rule(ctx);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      ctx.reportError(new GraphQLError(`operation is nested too deeply or has a fragment cycle (max depth ${maxDepth})`));
      return {};
    }
  };
}

/** graphql-ws validation with the same depth rule as HTTP. */
export function validateWithLimits(maxDepth: number) {
  return (schema: GraphQLSchema, doc: DocumentNode) => validate(schema, doc, [...specifiedRules, depthRule(maxDepth)]);
}

const pageSizeEstimator =
  (maxPageSize: number): ComplexityEstimator =>
  ({ args, childComplexity, field }) => {
    const typeName = String(field.type);
    if (!typeName.startsWith('[') && !/Connection!?$/.test(typeName)) return undefined;
    const first = typeof args.first === 'number' ? Math.min(Math.max(args.first, 1), maxPageSize) : maxPageSize;
    return 1 + childComplexity * first;
  };

export function costLimitPlugin(schema: GraphQLSchema, maxCost: number, maxPageSize: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          let cost: number;
          try {
            cost = getComplexity({
              schema,
              query: request.operationName ? separateOperations(document)[request.operationName] ?? document : document,
              variables: request.variables ?? {},
              estimators: [fieldExtensionsEstimator(), pageSizeEstimator(maxPageSize), simpleEstimator({ defaultComplexity: 1 })],
            });
          } catch (err) {
            // Variables that do not coerce: execution refuses them next with BAD_USER_INPUT before any
            // resolver runs, so there is nothing to cost (and this error would carry no code). Anything
            // else is refused here rather than run uncosted.
            if (err instanceof GraphQLError && /^Variable "\$/.test(err.message)) return;
            throw new GraphQLError('the cost of this operation cannot be computed', { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
          }
          if (cost > maxCost)
            throw new GraphQLError(`operation cost ${cost} exceeds the limit of ${maxCost}; ask for smaller pages or fewer fields`, {
              extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost, http: { status: 400 } },
            });
        },
      };
    },
  };
}
