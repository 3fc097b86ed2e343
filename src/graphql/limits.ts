// Query depth and cost limits. Depth is a validation rule (graphql-depth-limit) for HTTP and
// WebSocket alike. Cost needs the operation's variables, so it is checked after the operation is
// resolved (graphql-query-complexity): every field costs 1, a paginated field multiplies its children
// by the page size it asks for (`first`, else the maximum page size); fields may declare their own cost.
import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import {
  GraphQLError,
  Kind,
  separateOperations,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';

export function depthRule(maxDepth: number): ValidationRule {
  const rule = depthLimit(maxDepth);
  // graphql-depth-limit follows fragment spreads recursively, so a fragment cycle (which the standard
  // NoFragmentCycles rule reports on its own) or an absurdly deep document overflows the stack.
  return (ctx) => {
    if (hasFragmentCycle(ctx.getDocument())) return {};
    try {
      return rule(ctx);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      ctx.reportError(new GraphQLError(`operation is nested too deeply or has a fragment cycle (max depth ${maxDepth})`));
      return {};
    }
  };
}

/** True when fragments spread each other in a cycle (reported by the standard NoFragmentCycles rule). */
function hasFragmentCycle(doc: DocumentNode): boolean {
  const spreads = new Map<string, string[]>();
  for (const d of doc.definitions) {
    if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const names: string[] = [];
    visit(d.selectionSet, { FragmentSpread: (n) => void names.push(n.name.value) });
    spreads.set(d.name.value, names);
  }
  // Iterative depth-first search (grey/black marking), so a long fragment chain cannot overflow either.
  const state = new Map<string, 'open' | 'done'>();
  for (const start of spreads.keys()) {
    if (state.has(start)) continue;
    const stack: [string, number][] = [[start, 0]];
    state.set(start, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const next = spreads.get(top[0])?.[top[1]++];
      if (next === undefined) {
        state.set(top[0], 'done');
        stack.pop();
      } else if (state.get(next) === 'open') return true;
      else if (!state.has(next) && spreads.has(next)) {
        state.set(next, 'open');
        stack.push([next, 0]);
      }
    }
  }
  return false;
}

/** graphql-ws validation with the same depth rule as HTTP. */
export function validateWithLimits(maxDepth: number) {
  return (schema: GraphQLSchema, doc: DocumentNode) => validate(schema, doc, [...specifiedRules, depthRule(maxDepth)]);
}

// Like GitHub's API: only paginated fields (those that take `first`) multiply their children, by
// the page size asked for (the maximum when omitted). Unpaginated lists are small by construction
// (stores of a domain, groups of a report, lines of an order) and cost their children once.
const pageSizeEstimator =
  (maxPageSize: number): ComplexityEstimator =>
  ({ args, childComplexity, field }) => {
    if (!field.args.some((a) => a.name === 'first')) return undefined;
    const first = typeof args.first === 'number' ? Math.min(Math.max(args.first, 1), maxPageSize) : maxPageSize;
    return 1 + childComplexity * first;
  };

/** True when a page size (`first`) comes from a variable: then the cost differs per request. */
function pageSizeFromVariable(doc: DocumentNode): boolean {
  let found = false;
  visit(doc, {
    Argument(n) {
      if (n.name.value === 'first' && n.value.kind === Kind.VARIABLE) found = true;
    },
  });
  return found;
}

/**
 * The estimated cost of one operation of a document, or undefined when its variables do not coerce
 * (execution then refuses them with BAD_USER_INPUT before any resolver runs, so there is nothing to
 * cost). Anything else that cannot be costed is refused rather than run uncosted.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  maxPageSize: number,
): number | undefined {
  return costOf(schema, operationOf(document, operationName), variables, maxPageSize);
}

/** The named operation of a document (with the fragments it uses), or the document itself. */
function operationOf(document: DocumentNode, operationName: string | null | undefined): DocumentNode {
  return operationName ? (separateOperations(document)[operationName] ?? document) : document;
}

function costOf(
  schema: GraphQLSchema,
  query: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  maxPageSize: number,
): number | undefined {
  try {
    return getComplexity({
      schema,
      query,
      variables: variables ?? {},
      estimators: [fieldExtensionsEstimator(), pageSizeEstimator(maxPageSize), simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (err) {
    if (err instanceof GraphQLError && /^Variable "\$/.test(err.message)) return undefined;
    throw new GraphQLError('the cost of this operation cannot be computed', {
      extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
    });
  }
}

export function costTooHigh(cost: number, maxCost: number): GraphQLError | undefined {
  if (cost <= maxCost) return undefined;
  return new GraphQLError(`operation cost ${cost} exceeds the limit of ${maxCost}; ask for smaller pages or fewer fields`, {
    extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost, http: { status: 400 } },
  });
}

export function costLimitPlugin(schema: GraphQLSchema, maxCost: number, maxPageSize: number): ApolloServerPlugin {
  // Apollo hands identical query texts the same parsed DocumentNode, so the cost of an operation whose
  // page sizes are literals (every field's cost here depends on `first` only) is computed once per
  // document: costing walked the whole document and coerced every variable on every request, half
  // the pipeline's time for a small mutation (docs/benchmarks.md).
  const constantCosts = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const name = request.operationName ?? '';
          let cost = constantCosts.get(document)?.get(name);
          if (cost === undefined) {
            const query = operationOf(document, request.operationName);
            cost = costOf(schema, query, request.variables, maxPageSize);
            if (cost === undefined) return;
            if (!pageSizeFromVariable(query)) {
              const perOperation = constantCosts.get(document) ?? new Map<string, number>();
              perOperation.set(name, cost);
              constantCosts.set(document, perOperation);
            }
          }
          const refused = costTooHigh(cost, maxCost);
          if (refused) throw refused;
        },
      };
    },
  };
}
