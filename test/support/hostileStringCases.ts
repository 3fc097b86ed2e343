// Hostile-input cases about strings (test/e2e/hostileInput.e2e.spec.ts): every hostile string in every
// string argument of every mutation, query and operator action, and every kind of invalid token on an
// otherwise valid write. Strings that are valid for a free-text argument are not refused here; the spec
// checks separately that they are stored as plain data.
import {
  BAD_INPUT,
  CORRECT,
  DELETE,
  EITHER,
  INVALID,
  PLACE,
  RECORD,
  show,
  validOrder,
  validRecord,
  type Auth,
  type HostileCase,
  type Seeded,
} from './hostileCases';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const FREE_TEXT_OK = (s: string) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s);

export function injectionCases(strings: string[]): HostileCase[] {
  const c: HostileCase[] = [];
  const rec = (group: string, name: string, over: Record<string, unknown>, codes: string[]) =>
    c.push({ group, name, query: RECORD, variables: { input: { ...validRecord(), ...over } }, expect: 'reject', codes });
  const ord = (group: string, name: string, over: Record<string, unknown>, codes: string[]) =>
    c.push({ group, name, query: PLACE, variables: { input: { ...validOrder(), ...over } }, expect: 'reject', codes });
  const item = (over: Record<string, unknown>) => ({ items: [{ sku: 'SKU-1', quantity: 1, unitPrice: '1.00', ...over }] });
  for (const s of strings) {
    const g = 'injection';
    rec(g, `record unit ${show(s)}`, { unit: s }, INVALID);
    rec(g, `record result ${show(s)}`, { result: s }, BAD_INPUT);
    if (!SAFE_ID.test(s)) rec(g, `record idempotencyKey ${show(s)}`, { idempotencyKey: s }, INVALID);
    c.push({
      group: g,
      name: `correct dataId ${show(s)}`,
      query: CORRECT,
      variables: { dataId: s, v: 1, result: '2.000', unit: 'm' },
      expect: 'reject',
      codes: EITHER,
    });
    c.push({
      group: g,
      name: `correct result ${show(s)}`,
      query: CORRECT,
      variables: (x: Seeded) => ({ dataId: x.dataId, v: x.version, result: s, unit: 'm' }),
      expect: 'reject',
      codes: BAD_INPUT,
    });
    c.push({
      group: g,
      name: `correct unit ${show(s)}`,
      query: CORRECT,
      variables: (x: Seeded) => ({ dataId: x.dataId, v: x.version, result: '2.000', unit: s }),
      expect: 'reject',
      codes: INVALID,
    });
    c.push({ group: g, name: `delete dataId ${show(s)}`, query: DELETE, variables: { dataId: s, v: 1 }, expect: 'reject', codes: EITHER });
    ord(g, `order currency ${show(s)}`, { currency: s }, INVALID);
    ord(g, `order unitPrice ${show(s)}`, item({ unitPrice: s }), BAD_INPUT);
    if (!FREE_TEXT_OK(s)) {
      ord(g, `order customerId ${show(s)}`, { customerId: s }, INVALID);
      ord(g, `order sku ${show(s)}`, item({ sku: s }), INVALID);
      ord(g, `order idempotencyKey ${show(s)}`, { idempotencyKey: s }, INVALID);
    }
    const ans = (name: string, query: string, variables: unknown, auth: Auth = 'service', codes = EITHER) =>
      c.push({ group: g, name, query, variables, auth, expect: 'answer', codes });
    // A list without a selective filter is refused for an unscoped caller (FILTER_REQUIRED).
    const LIST_CODES = [...EITHER, 'FILTER_REQUIRED'];
    ans(`fitnessResult dataId ${show(s)}`, 'query Q($s: ID!) { fitnessResult(dataId: $s) { dataId } }', { s });
    ans(
      `fitnessResults after ${show(s)}`,
      'query Q($s: String) { fitnessResults(after: $s) { nodes { dataId } } }',
      { s },
      'service',
      LIST_CODES,
    );
    ans(`order orderId ${show(s)}`, 'query Q($s: ID!) { order(orderId: $s) { orderId } }', { s });
    ans(
      `orders customerId/currency ${show(s)}`,
      'query Q($s: String) { orders(filter: { customerId: $s, currency: $s }) { nodes { orderId } } }',
      { s },
      'service',
      LIST_CODES,
    );
    ans(`orders after ${show(s)}`, 'query Q($s: String) { orders(after: $s) { nodes { orderId } } }', { s }, 'service', LIST_CODES);
    ans(
      `publications after ${show(s)}`,
      'query Q($s: String) { publications(domain: orders, after: $s) { __typename } }',
      { s },
      'operator',
    );
    ans(
      `parkedOutboxEvents filter ${show(s)}`,
      'query Q($s: String) { parkedOutboxEvents(filter: { aggregateId: $s, domain: $s, errorCode: $s }) { __typename } }',
      { s },
      'operator',
    );
    ans(
      `replayParkedEvents filter ${show(s)}`,
      'mutation M($s: String) { replayParkedEvents(filter: { aggregateId: $s }) { __typename } }',
      { s },
      'operator',
    );
    // An erasure of a student nobody has: the reason is free text (one erasure is started, every later
    // request returns it); a hostile id reads nothing.
    ans(
      `eraseStudent reason ${show(s)}`,
      'mutation M($s: String!) { eraseStudent(userId: 987654, reason: $s) { __typename } }',
      { s },
      'operator',
    );
    ans(`erasure id ${show(s)}`, 'query Q($s: ID!) { erasure(id: $s) { id } }', { s }, 'operator');
    ans(`erasures after ${show(s)}`, 'query Q($s: String) { erasures(first: 5, after: $s) { id } }', { s }, 'operator');
    ans(
      `replayDeadLetters eventIds ${show(s)}`,
      'mutation M($s: String!) { replayDeadLetters(filter: { domain: orders, eventIds: [$s] }) { replayedCount } }',
      { s },
      'operator',
    );
  }

  return c;
}

/** Invalid tokens, each on an otherwise valid write. */
export function tokenCases(): HostileCase[] {
  const c: HostileCase[] = [];
  const auth = (name: string, a: Auth, codes: string[], query = RECORD, variables: unknown = { input: validRecord() }) =>
    c.push({ group: 'tokens', name, query, variables, auth: a, expect: 'reject', codes });
  auth('no token', 'none', ['UNAUTHENTICATED']);
  auth('a garbage token', 'garbage', ['UNAUTHENTICATED']);
  auth('a 5,000-character token', 'oversized', ['UNAUTHENTICATED']);
  auth('a token signed with another secret', 'wrongSecret', ['UNAUTHENTICATED']);
  auth('an expired token', 'expired', ['UNAUTHENTICATED']);
  auth('a token for another audience', 'wrongAudience', ['UNAUTHENTICATED']);
  auth('a token from another issuer', 'wrongIssuer', ['UNAUTHENTICATED']);
  auth('a token with an unknown role', 'unknownRole', ['UNAUTHENTICATED']);
  auth('an unsigned (alg none) operator token', 'algNone', ['UNAUTHENTICATED']);
  auth('basic credentials', 'basic', ['UNAUTHENTICATED']);
  auth('an analyst writing', 'analyst', ['FORBIDDEN']);
  auth('an analyst placing an order', 'analyst', ['FORBIDDEN'], PLACE, { input: validOrder() });
  auth(
    'a trusted service replaying dead letters',
    'service',
    ['FORBIDDEN'],
    'mutation { replayDeadLetters(filter: { domain: orders }) { replayedCount } }',
    {},
  );
  return c;
}
