// The hostile-input table (test/e2e/hostileInput.e2e.spec.ts). Each case is one request and what the
// gateway must answer: 'reject' = a typed error with one of `codes` and no change anywhere; 'answer' =
// data or a typed error, and no change. Every mutation template is otherwise valid, so a case that
// slipped through validation would visibly write something.
import { randomUUID } from 'node:crypto';

export type Auth =
  | 'service'
  | 'operator'
  | 'analyst'
  | 'none'
  | 'garbage'
  | 'oversized'
  | 'wrongSecret'
  | 'expired'
  | 'wrongAudience'
  | 'wrongIssuer'
  | 'unknownRole'
  | 'algNone'
  | 'basic';

export interface Seeded {
  dataId: string;
  version: number;
}

export interface HostileCase {
  group: string;
  name: string;
  query?: string;
  variables?: unknown | ((s: Seeded) => unknown);
  /** A literal request body (for bodies that are not a GraphQL request at all). */
  rawBody?: string;
  auth?: Auth;
  expect: 'reject' | 'answer';
  codes: string[];
}

export const RECORD = 'mutation R($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId version } } }';
export const CORRECT =
  'mutation C($dataId: ID!, $v: Int!, $result: Decimal!, $unit: String!) { correctFitnessResult(dataId: $dataId, expectedVersion: $v, result: $result, unit: $unit) { result { version } } }';
export const DELETE =
  'mutation D($dataId: ID!, $v: Int!) { deleteFitnessResult(dataId: $dataId, expectedVersion: $v) { result { version } } }';
export const PLACE = 'mutation P($input: PlaceOrderInput!) { placeOrder(input: $input) { order { orderId } outcome } }';

export const validRecord = () => ({ detectId: 42, userId: 7, projectId: 3, schoolId: 5, grade: 4, result: '2.310', unit: 'm' });
export const validOrder = () => ({
  customerId: 'hostile-test',
  currency: 'EUR',
  idempotencyKey: `k-${randomUUID()}`,
  items: [{ sku: 'SKU-1', quantity: 1, unitPrice: '1.00' }],
});

export const BAD_INPUT = ['BAD_USER_INPUT'];
export const INVALID = ['VALIDATION_FAILED'];
const SHAPE = ['GRAPHQL_VALIDATION_FAILED'];
/** Either layer may refuse first: GraphQL coercion (BAD_USER_INPUT) or the domain (VALIDATION_FAILED). */
export const EITHER = ['BAD_USER_INPUT', 'VALIDATION_FAILED'];
export const show = (s: string) => JSON.stringify(s.length > 24 ? `${s.slice(0, 24)}…(${s.length})` : s);

function nest(depth: number, leaf: unknown, wrap: (x: unknown) => unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = wrap(v);
  return v;
}

/** Wrong types, huge input, deep nesting, unknown fields (the string cases are in hostileStringCases.ts). */
export function hostileCases(): HostileCase[] {
  const c: HostileCase[] = [];
  const rec = (group: string, name: string, over: Record<string, unknown>, codes: string[]) =>
    c.push({ group, name, query: RECORD, variables: { input: { ...validRecord(), ...over } }, expect: 'reject', codes });
  const ord = (group: string, name: string, over: Record<string, unknown>, codes: string[]) =>
    c.push({ group, name, query: PLACE, variables: { input: { ...validOrder(), ...over } }, expect: 'reject', codes });
  const item = (over: Record<string, unknown>) => ({ items: [{ sku: 'SKU-1', quantity: 1, unitPrice: '1.00', ...over }] });

  // Wrong types.
  rec('wrong types', 'detectId as a string', { detectId: 'abc' }, BAD_INPUT);
  rec('wrong types', 'detectId beyond 32 bits', { detectId: 2 ** 31 }, BAD_INPUT);
  rec('wrong types', 'grade as a fraction', { grade: 1.5 }, BAD_INPUT);
  rec('wrong types', 'result as a float', { result: 2.31 }, BAD_INPUT);
  rec('wrong types', 'result as a boolean', { result: true }, BAD_INPUT);
  rec('wrong types', 'result as an object', { result: { $gt: 0 } }, BAD_INPUT);
  rec('wrong types', 'negative result', { result: '-1.000' }, EITHER);
  c.push({ group: 'wrong types', name: 'input null', query: RECORD, variables: { input: null }, expect: 'reject', codes: BAD_INPUT });
  c.push({ group: 'wrong types', name: 'input a string', query: RECORD, variables: { input: 'x' }, expect: 'reject', codes: BAD_INPUT });
  c.push({
    group: 'wrong types',
    name: 'expectedVersion as a string',
    query: CORRECT,
    variables: (s: Seeded) => ({ dataId: s.dataId, v: '1', result: '2.000', unit: 'm' }),
    expect: 'reject',
    codes: BAD_INPUT,
  });
  c.push({
    group: 'wrong types',
    name: 'dataId as an object',
    query: DELETE,
    variables: { dataId: { id: 1 }, v: 1 },
    expect: 'reject',
    codes: BAD_INPUT,
  });
  c.push({
    group: 'wrong types',
    name: 'negative expectedVersion',
    query: DELETE,
    variables: (s: Seeded) => ({ dataId: s.dataId, v: -1 }),
    expect: 'reject',
    codes: EITHER,
  });
  ord('wrong types', 'quantity as a string', item({ quantity: '2' }), BAD_INPUT);
  ord('wrong types', 'quantity zero', item({ quantity: 0 }), INVALID);
  ord('wrong types', 'negative unit price', item({ unitPrice: '-1.00' }), INVALID);
  c.push({
    group: 'wrong types',
    name: 'inline literal of the wrong type',
    query:
      'mutation { recordFitnessResult(input: { detectId: "x", userId: 1, projectId: 3, schoolId: 1, grade: 1, result: "2.0", unit: "m" }) { result { dataId } } }',
    expect: 'reject',
    codes: SHAPE,
  });
  c.push({
    group: 'wrong types',
    name: 'variables not an object',
    rawBody: JSON.stringify({ query: RECORD, variables: 'input' }),
    expect: 'reject',
    codes: ['BAD_REQUEST'],
  });
  c.push({
    group: 'wrong types',
    name: 'query not a string',
    rawBody: JSON.stringify({ query: 42 }),
    expect: 'reject',
    codes: ['BAD_REQUEST'],
  });
  c.push({ group: 'wrong types', name: 'body not JSON', rawBody: '{"query": "mutation {', expect: 'reject', codes: ['BAD_REQUEST'] });

  // Huge strings and lists.
  const huge = 'x'.repeat(100_000);
  rec('huge input', 'a 100 kB unit', { unit: huge }, INVALID);
  rec('huge input', 'a 100 kB result', { result: '1'.repeat(100_000) }, BAD_INPUT);
  rec('huge input', 'a 100 kB idempotency key', { idempotencyKey: huge }, INVALID);
  c.push({
    group: 'huge input',
    name: 'a 100 kB dataId',
    query: DELETE,
    variables: { dataId: '9'.repeat(100_000), v: 1 },
    expect: 'reject',
    codes: EITHER,
  });
  ord('huge input', 'a 100 kB customer id', { customerId: huge }, INVALID);
  ord('huge input', 'a 100 kB sku', item({ sku: huge }), INVALID);
  ord('huge input', 'a 100 kB order key', { idempotencyKey: huge }, INVALID);
  ord('huge input', 'a 2 MB body (over the body limit)', { customerId: 'c'.repeat(2_000_000) }, ['PAYLOAD_TOO_LARGE', 'BAD_REQUEST']);
  ord(
    'huge input',
    '10,000 order lines',
    { items: Array.from({ length: 10_000 }, (_, i) => ({ sku: `S${i}`, quantity: 1, unitPrice: '1.00' })) },
    // Over 256 KiB: refused from its Content-Length (PAYLOAD_TOO_LARGE) before validation could run.
    [...INVALID, 'PAYLOAD_TOO_LARGE'],
  );
  ord(
    'huge input',
    'one line over the limit (101)',
    { items: Array.from({ length: 101 }, (_, i) => ({ sku: `S${i}`, quantity: 1, unitPrice: '1.00' })) },
    INVALID,
  );
  ord('huge input', 'no lines', { items: [] }, INVALID);
  c.push({
    group: 'huge input',
    name: '2,000 aliased mutations in one document',
    query: `mutation { ${Array.from({ length: 2000 }, (_, i) => `a${i}: recordFitnessResult(input: { detectId: 1, userId: 1, projectId: 3, schoolId: 1, grade: 1, result: "2.000", unit: "m" }) { result { dataId version } }`).join(' ')} }`,
    expect: 'reject',
    // Refused before parsing now (the body limit, GRAPHQL_MAX_DOCUMENT_BYTES / GRAPHQL_MAX_TOKENS).
    codes: ['QUERY_TOO_COMPLEX', 'DOCUMENT_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
  });
  c.push({
    group: 'huge input',
    name: '20,000 event ids to replay',
    query: 'mutation X($f: ReplayDeadLettersInput!) { replayDeadLetters(filter: $f) { replayedCount } }',
    variables: { f: { domain: 'orders', eventIds: Array.from({ length: 20_000 }, (_, i) => `order-placed:${i}:v1`) } },
    auth: 'operator',
    expect: 'answer',
    // Over 256 KiB as a body: refused before it is read.
    codes: [...EITHER, 'PAYLOAD_TOO_LARGE'],
  });
  c.push({
    group: 'huge input',
    name: 'a page of a million',
    query: 'query { fitnessResults(first: 1000000) { nodes { dataId } } }',
    expect: 'answer',
    codes: ['QUERY_TOO_COMPLEX', 'VALIDATION_FAILED', 'BAD_USER_INPUT'],
  });

  // Deep nesting.
  c.push({
    group: 'deep nesting',
    name: 'selection 30 levels deep',
    query: `query { fitnessResults { nodes { ${'studentResults { '.repeat(30)}dataId${' }'.repeat(30)} } } }`,
    expect: 'reject',
    codes: SHAPE,
  });
  c.push({
    group: 'deep nesting',
    name: '5,000 nested braces',
    query: `query ${'{ a '.repeat(5000)}${'}'.repeat(5000)}`,
    expect: 'reject',
    codes: ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST', 'DOCUMENT_TOO_LARGE'],
  });
  ord(
    'deep nesting',
    'order lines nested 2,000 lists deep',
    { items: nest(2000, { sku: 'S', quantity: 1, unitPrice: '1.00' }, (x) => [x]) },
    BAD_INPUT,
  );
  rec('deep nesting', 'an input field nested 2,000 objects deep', { detectId: nest(2000, 1, (x) => ({ a: x })) }, BAD_INPUT);
  c.push({
    group: 'deep nesting',
    name: 'a fragment cycle',
    query: 'query { health { ...A } } fragment A on Health { ...B } fragment B on Health { ...A }',
    expect: 'reject',
    codes: SHAPE,
  });

  // Unknown fields.
  rec('unknown fields', 'an extra input field', { admin: true }, BAD_INPUT);
  c.push({
    group: 'unknown fields',
    name: 'a __proto__ input field',
    rawBody: `{"query": ${JSON.stringify(RECORD)}, "variables": {"input": {"detectId": 42, "userId": 7, "projectId": 3, "schoolId": 5, "grade": 4, "result": "2.310", "unit": "m", "__proto__": {"admin": true}}}}`,
    expect: 'reject',
    codes: BAD_INPUT,
  });
  c.push({
    group: 'unknown fields',
    name: 'an unknown argument',
    query: 'mutation R($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input, force: true) { result { dataId } } }',
    variables: { input: validRecord() },
    expect: 'reject',
    codes: SHAPE,
  });
  c.push({
    group: 'unknown fields',
    name: 'an unknown selected field',
    query: 'mutation R($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId password } } }',
    variables: { input: validRecord() },
    expect: 'reject',
    codes: SHAPE,
  });
  c.push({ group: 'unknown fields', name: 'an unknown mutation', query: 'mutation { dropAllTables }', expect: 'reject', codes: SHAPE });
  c.push({
    group: 'unknown fields',
    name: 'an undeclared variable',
    query: 'mutation { recordFitnessResult(input: $input) { result { dataId } } }',
    variables: { input: validRecord() },
    expect: 'reject',
    codes: SHAPE,
  });
  c.push({
    group: 'unknown fields',
    name: 'an unknown operationName',
    rawBody: JSON.stringify({ query: RECORD, operationName: 'Evil', variables: { input: validRecord() } }),
    expect: 'reject',
    codes: ['OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST', 'GRAPHQL_VALIDATION_FAILED'],
  });

  return c;
}
