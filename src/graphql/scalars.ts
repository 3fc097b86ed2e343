// Shared GraphQL scalars. `Decimal` carries exact decimals as strings on the wire ("2.310",
// "19.9000"), never as floats: a JSON number would round through IEEE-754 in most clients. Every
// domain uses this one scalar (two scalars with the same name would break the schema build).
// Input accepts a string (or an integer literal) of plain decimal notation; each domain then checks
// its own scale and range and canonicalises.
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const PLAIN_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const MAX_LENGTH = 40;

function parse(value: unknown): string {
  const s = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
  if (s === undefined || s.length > MAX_LENGTH || !PLAIN_DECIMAL.test(s)) {
    throw new GraphQLError('Decimal must be a string in plain decimal notation, e.g. "2.31"', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return s;
}

export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal number as a string in plain notation, e.g. "2.310". Never a float.',
  serialize: (v) => {
    if (typeof v === 'string') return v;
    throw new GraphQLError('Decimal values must be produced as strings');
  },
  parseValue: parse,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return parse(ast.kind === Kind.INT ? Number(ast.value) : ast.value);
    throw new GraphQLError('Decimal must be a string literal, e.g. "2.31"', { extensions: { code: 'BAD_USER_INPUT' } });
  },
});
