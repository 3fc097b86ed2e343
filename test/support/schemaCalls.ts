// Every root field of the running schema as a minimal, valid GraphQL operation: the authorisation
// matrix calls each one with every role without a hand-written document, so a field added tomorrow
// is called too. Arguments get the smallest value of their type (required ones only, input objects
// filled recursively); object results select only __typename, which every resolver must still run
// its authorisation for.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';

export type RootKind = 'query' | 'mutation' | 'subscription';

export interface RootCall {
  kind: RootKind;
  field: string;
  /** The operation text, e.g. `mutation { repair(ids: ["1"]) { __typename } }`. */
  document: string;
}

const SCALARS: Record<string, string> = {
  ID: '"1"',
  Int: '1',
  Float: '1',
  String: '"x"',
  Boolean: 'false',
  DateTimeISO: '"2026-01-01T00:00:00.000Z"',
  Decimal: '"1"',
};

function literal(t: GraphQLInputType): string {
  if (isNonNullType(t)) return literal(t.ofType);
  if (isListType(t)) return `[${literal(t.ofType)}]`;
  if (isEnumType(t)) return t.getValues()[0]!.name;
  if (isScalarType(t)) return SCALARS[t.name] ?? '"x"';
  if (isInputObjectType(t)) {
    const required = Object.values(t.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{ ${required.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  throw new TypeError(`no literal for ${String(t)}`);
}

function call(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const argText = args.length ? `(${args.map((a) => `${a.name}: ${literal(a.type)}`).join(', ')})` : '';
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  return `${field.name}${argText}${selection}`;
}

export function rootCalls(schema: GraphQLSchema): RootCall[] {
  const roots: [RootKind, ReturnType<GraphQLSchema['getQueryType']>][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  return roots.flatMap(([kind, type]) =>
    Object.values(type?.getFields() ?? {}).map((f) => ({ kind, field: f.name, document: `${kind} { ${call(f)} }` })),
  );
}
