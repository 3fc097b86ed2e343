// The cells of the authorisation matrix (test/e2e/authorization.e2e.spec.ts) for the fields whose answer
// depends on the caller's scope: every role, in scope and out of scope. The seeded campaign holds
// school 11 (five students, 501 and 504-507), school 12 (four students, 502 and 508-510) and one
// result recorded at school 11 and then moved to school 99 (its older version matched school 11:
// the latest version decides). Writes use another campaign so the seeded counts never move.
import type { Principal } from '../../src/auth/principal';
import type { GraphQLResponse } from '../support/graphqlClient';

export const PRINCIPALS = {
  operator: { subject: 'm-operator', roles: ['operator'] },
  service: { subject: 'test-service', roles: ['service'] },
  teacher: { subject: 'm-teacher-11', roles: ['teacher'], schoolIds: [11] },
  teacher12: { subject: 'm-teacher-12', roles: ['teacher'], schoolIds: [12] },
  student: { subject: 'm-student-501', roles: ['student'], userId: 501 },
  customer: { subject: 'm-customer-a', roles: ['customer'], customerId: 'c-a' },
  customerB: { subject: 'm-customer-b', roles: ['customer'], customerId: 'c-b' },
  analyst: { subject: 'm-analyst', roles: ['analyst'] },
} satisfies Record<string, Principal>;
export type Who = keyof typeof PRINCIPALS | 'anonymous';
export const EVERYONE: Who[] = [...(Object.keys(PRINCIPALS) as Who[]), 'anonymous'];

type Response = GraphQLResponse<Record<string, unknown>>;
export type Ask = (who: Who, query: string, variables?: Record<string, unknown>) => Promise<Response>;
/** Subscribes as `who` until the subscription completes or is refused: its events and errors. */
export type Watch = (who: Who, query: string, variables?: Record<string, unknown>) => Promise<{ events: unknown[]; errors: unknown[] }>;
export type Cell = (ask: Ask, seeded: () => Seeded, watch: Watch) => Promise<void>;

export const codeOf = (r: Response): string | undefined => r.errors?.[0]?.extensions?.code;

export interface Seeded {
  detectId: number;
  liveResults: number;
  r11: string;
  r12: string;
  moved: string;
  orderA: string;
  orderB: string;
}

const SEEDED_CAMPAIGN = 71001;
const WRITE_CAMPAIGN = 71002;
const jump = { projectId: 3, grade: 5, unit: 'm' };

const RECORD = `mutation($input: RecordFitnessResultInput!) {
  recordFitnessResult(input: $input) { result { dataId version schoolId } consistencyToken } }`;
const CONSISTENT_LOOKUP = `query($id: ID!, $t: String!) {
  fitnessResult(dataId: $id, consistency: { atLeast: [$t], maxWaitMs: 5000 }) { result { dataId } freshness { missing { version } } } }`;
const CONSISTENT_ORDER = `query($id: ID!, $t: String!) {
  order(orderId: $id, consistency: { atLeast: [$t], maxWaitMs: 5000 }) { order { orderId } freshness { missing { version } } } }`;
const WRITE_VISIBLE = `subscription($t: String!) { writeVisible(consistencyToken: $t) { visible reason } }`;
const CORRECT = `mutation($id: ID!, $v: Int!, $s: Int) {
  correctFitnessResult(dataId: $id, expectedVersion: $v, result: "2.31", unit: "m", schoolId: $s) { result { dataId version schoolId } } }`;
const DELETE = `mutation($id: ID!, $v: Int!) { deleteFitnessResult(dataId: $id, expectedVersion: $v) { result { dataId } } }`;
const PLACE = `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { order { orderId customerId } replayed consistencyToken } }`;
const LOOKUP = `query($id: ID!) { fitnessResult(dataId: $id) { result { dataId schoolId } freshness { status reason pendingPublications } } }`;
const LIST = `query($d: Int!, $s: Int) { fitnessResults(filter: { detectId: $d, schoolId: $s }, first: 50) { nodes { dataId schoolId userId } } }`;
const REPORT = `query($d: Int!) { fitnessReport(detectId: $d, projectId: 3, groupBy: SCHOOL) { groups { key count } suppressedGroups } }`;
const ORDER = `query($id: ID!) { order(orderId: $id) { order { orderId customerId } } }`;
// A bounded window: an operator's list without a customer needs one (a customer's own scope bounds it).
const DAY_MS = 24 * 3600 * 1000;
const WINDOW = `from: "${new Date(Date.now() - DAY_MS).toISOString()}", to: "${new Date(Date.now() + DAY_MS).toISOString()}"`;
const ORDERS = `query { orders(first: 100, filter: { ${WINDOW} }) { nodes { orderId customerId } } }`;
const UNBOUNDED_ORDERS = `query { orders(first: 100) { nodes { orderId } } }`;
const ORDER_REPORT = `query($from: DateTimeISO!, $to: DateTimeISO!) {
  orderReport(from: $from, to: $to, groupBy: CURRENCY) { groups { key orderCount } suppressedGroups } }`;

function ok(r: Response, what: string): Record<string, unknown> {
  if (r.errors) throw new Error(`${what}: ${JSON.stringify(r.errors)}`);
  return r.data!;
}

let keyCounter = 0;
const record = (schoolId: number, userId: number, detectId = WRITE_CAMPAIGN, key?: string) => ({
  input: { ...jump, detectId, schoolId, userId, result: '2.21', ...(key ? { idempotencyKey: key } : {}) },
});
const order = (customerId?: string, key = `k-${Date.now()}-${keyCounter++}`) => ({
  input: {
    ...(customerId ? { customerId } : {}),
    currency: 'EUR',
    idempotencyKey: key,
    items: [{ sku: 'S', quantity: 1, unitPrice: '1.00' }],
  },
});

export async function seedMatrix(ask: Ask): Promise<Seeded> {
  const rec = async (schoolId: number, userId: number) =>
    (
      ok(await ask('service', RECORD, record(schoolId, userId, SEEDED_CAMPAIGN)), 'seed').recordFitnessResult as {
        result: { dataId: string };
      }
    ).result.dataId;
  const r11 = await rec(11, 501);
  for (const u of [504, 505, 506, 507]) await rec(11, u);
  const r12 = await rec(12, 502);
  for (const u of [508, 509, 510]) await rec(12, u);
  const moved = await rec(11, 503);
  ok(await ask('service', CORRECT, { id: moved, v: 1, s: 99 }), 'move to school 99');
  const place = async (c: string) =>
    (ok(await ask('service', PLACE, order(c)), 'seed order').placeOrder as { order: { orderId: string } }).order.orderId;
  return { detectId: SEEDED_CAMPAIGN, liveResults: 10, r11, r12, moved, orderA: await place('c-a'), orderB: await place('c-b') };
}

/** The outcome of a call in the matrix's words: a code, null (nothing there), or the data itself. */
async function expectCode(ask: Ask, who: Who[], query: string, vars: Record<string, unknown>, code: string): Promise<void> {
  for (const w of who) expect({ who: w, code: codeOf(await ask(w, query, vars)) }).toEqual({ who: w, code });
}

const NOT_FITNESS_READERS: Who[] = ['customer', 'customerB', 'analyst'];
const NOT_FITNESS_WRITERS: Who[] = ['student', 'customer', 'customerB', 'analyst'];
const NOT_ORDER_USERS: Who[] = ['teacher', 'teacher12', 'student', 'analyst'];

const lookupOf = async (ask: Ask, who: Who, id: string) => {
  const r = await ask(who, LOOKUP, { id });
  return ok(r, `${who} lookup`).fitnessResult as { result: { dataId: string; schoolId: number } | null; freshness: unknown };
};
const listOf = async (ask: Ask, who: Who, d: number, s?: number) =>
  (ok(await ask(who, LIST, { d, s }), `${who} list`).fitnessResults as { nodes: { userId: number; schoolId: number }[] }).nodes;
const reportOf = async (ask: Ask, who: Who, d: number) =>
  ok(await ask(who, REPORT, { d }), `${who} report`).fitnessReport as {
    groups: { key: number; count: number }[];
    suppressedGroups: number;
  };

export const FIELD_CASES: Record<string, Cell[]> = {
  fitnessResult: [
    async (ask, s) => {
      const { r11, r12, moved } = s();
      for (const who of ['operator', 'service', 'teacher', 'student'] as Who[])
        expect((await lookupOf(ask, who, r11)).result?.dataId).toBe(r11);
      for (const who of ['teacher12', 'student'] as Who[])
        expect((await lookupOf(ask, who, who === 'student' ? r12 : r11)).result).toBeNull();
      expect((await lookupOf(ask, 'teacher', r12)).result).toBeNull();
      expect((await lookupOf(ask, 'teacher12', r12)).result?.dataId).toBe(r12);
      // The latest version (school 99) decides, although version 1 was at school 11.
      expect((await lookupOf(ask, 'teacher', moved)).result).toBeNull();
      expect((await lookupOf(ask, 'operator', moved)).result).toMatchObject({ dataId: moved, schoolId: 99 });
      // Someone else's result answers exactly like one that does not exist, freshness included.
      const unknown = await lookupOf(ask, 'teacher', '999999900');
      expect((await lookupOf(ask, 'teacher', r12)).freshness).toEqual(unknown.freshness);
      await expectCode(ask, NOT_FITNESS_READERS, LOOKUP, { id: r11 }, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], LOOKUP, { id: r11 }, 'UNAUTHENTICATED');
    },
  ],
  fitnessResults: [
    async (ask, s) => {
      const d = s().detectId;
      expect(await listOf(ask, 'operator', d)).toHaveLength(10);
      expect(await listOf(ask, 'service', d)).toHaveLength(10);
      const mine = await listOf(ask, 'teacher', d);
      expect(mine.map((n) => n.userId).sort()).toEqual([501, 504, 505, 506, 507]);
      expect(await listOf(ask, 'teacher', d, 12)).toEqual([]);
      expect(await listOf(ask, 'teacher', d, 99)).toEqual([]);
      expect((await listOf(ask, 'teacher12', d)).map((n) => n.userId).sort()).toEqual([502, 508, 509, 510]);
      expect((await listOf(ask, 'student', d)).map((n) => n.userId)).toEqual([501]);
      await expectCode(ask, NOT_FITNESS_READERS, LIST, { d }, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], LIST, { d }, 'UNAUTHENTICATED');
    },
  ],
  fitnessReport: [
    async (ask, s) => {
      const d = s().detectId;
      const all = await reportOf(ask, 'operator', d);
      expect(all.groups.map((g) => [g.key, g.count])).toEqual([
        [11, 5],
        [12, 4],
        [99, 1],
      ]);
      expect(all.suppressedGroups).toBe(0);
      expect(await reportOf(ask, 'teacher', d)).toEqual({ groups: [{ key: 11, count: 5 }], suppressedGroups: 0 });
      // Analysts never see a group of fewer than REPORT_MIN_GROUP_SIZE (5) students: 12 has 4, 99 has 1.
      expect(await reportOf(ask, 'analyst', d)).toEqual({ groups: [{ key: 11, count: 5 }], suppressedGroups: 2 });
      await expectCode(ask, ['student', 'customer', 'customerB'], REPORT, { d }, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], REPORT, { d }, 'UNAUTHENTICATED');
    },
  ],
  // A consistency token is its writer's: any other caller gets VALIDATION_FAILED, as for a forged one.
  writeVisible: [
    async (ask, _s, watch) => {
      const rec = ok(await ask('teacher', RECORD, record(11, 630)), 'teacher records').recordFitnessResult as { consistencyToken: string };
      const t = rec.consistencyToken;
      expect(await watch('teacher', WRITE_VISIBLE, { t })).toEqual({
        events: [{ writeVisible: { visible: true, reason: null } }],
        errors: [],
      });
      for (const who of ['teacher12', 'operator', 'service', 'student', 'customer', 'analyst'] as Who[]) {
        const r = await watch(who, WRITE_VISIBLE, { t });
        expect({ who, events: r.events, refused: JSON.stringify(r.errors).includes('VALIDATION_FAILED') }).toEqual({
          who,
          events: [],
          refused: true,
        });
      }
    },
  ],
  consistency: [
    async (ask) => {
      const rec = ok(await ask('teacher', RECORD, record(11, 631)), 'teacher records').recordFitnessResult as {
        result: { dataId: string };
        consistencyToken: string;
      };
      const vars = { id: rec.result.dataId, t: rec.consistencyToken };
      const mine = ok(await ask('teacher', CONSISTENT_LOOKUP, vars), 'own token').fitnessResult as { result: unknown };
      expect(mine.result).toMatchObject({ dataId: rec.result.dataId });
      await expectCode(ask, ['teacher12', 'operator', 'service', 'student'], CONSISTENT_LOOKUP, vars, 'VALIDATION_FAILED');
      const placed = ok(await ask('customer', PLACE, order()), 'customer places').placeOrder as {
        order: { orderId: string };
        consistencyToken: string;
      };
      const o = { id: placed.order.orderId, t: placed.consistencyToken };
      expect((ok(await ask('customer', CONSISTENT_ORDER, o), 'own order').order as { order: unknown }).order).toMatchObject({
        orderId: o.id,
      });
      await expectCode(ask, ['customerB', 'operator'], CONSISTENT_ORDER, o, 'VALIDATION_FAILED');
    },
  ],
  recordFitnessResult: [
    async (ask) => {
      for (const who of ['operator', 'service', 'teacher'] as Who[]) ok(await ask(who, RECORD, record(11, 600)), `${who} records`);
      await expectCode(ask, ['teacher'], RECORD, record(12, 601), 'FORBIDDEN');
      await expectCode(ask, NOT_FITNESS_WRITERS, RECORD, record(11, 602), 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], RECORD, record(11, 603), 'UNAUTHENTICATED');
      // Keys are per caller: teacher12 reusing teacher's key gets a result of its own.
      const a = ok(await ask('teacher', RECORD, record(11, 604, WRITE_CAMPAIGN, 'shared-key')), 'a').recordFitnessResult as never;
      const b = ok(await ask('teacher12', RECORD, record(12, 605, WRITE_CAMPAIGN, 'shared-key')), 'b').recordFitnessResult as never;
      expect((b as { result: { dataId: string } }).result.dataId).not.toBe((a as { result: { dataId: string } }).result.dataId);
    },
  ],
  correctFitnessResult: [
    async (ask, s) => {
      const { r12 } = s();
      const own = (ok(await ask('teacher', RECORD, record(11, 610)), 'own').recordFitnessResult as { result: { dataId: string } }).result
        .dataId;
      const other = await ask('teacher', CORRECT, { id: r12, v: 1 });
      const missing = await ask('teacher', CORRECT, { id: '999999900', v: 1 });
      expect(codeOf(other)).toBe('NOT_FOUND');
      expect(other.errors![0]!.message.replace(r12, '<id>')).toBe(missing.errors![0]!.message.replace('999999900', '<id>'));
      await expectCode(ask, ['teacher'], CORRECT, { id: own, v: 1, s: 12 }, 'FORBIDDEN');
      ok(await ask('teacher', CORRECT, { id: own, v: 1 }), 'teacher corrects its own');
      await expectCode(ask, NOT_FITNESS_WRITERS, CORRECT, { id: own, v: 2 }, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], CORRECT, { id: own, v: 2 }, 'UNAUTHENTICATED');
      // Nothing changed on the other school's result.
      expect((await lookupOf(ask, 'operator', r12)).result).toMatchObject({ dataId: r12, schoolId: 12 });
    },
  ],
  deleteFitnessResult: [
    async (ask, s) => {
      await expectCode(ask, ['teacher'], DELETE, { id: s().r12, v: 1 }, 'NOT_FOUND');
      await expectCode(ask, NOT_FITNESS_WRITERS, DELETE, { id: s().r11, v: 1 }, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], DELETE, { id: s().r11, v: 1 }, 'UNAUTHENTICATED');
      const own = (ok(await ask('teacher', RECORD, record(11, 620)), 'own').recordFitnessResult as { result: { dataId: string } }).result
        .dataId;
      ok(await ask('teacher', DELETE, { id: own, v: 1 }), 'teacher deletes its own');
    },
  ],
  placeOrder: [
    async (ask) => {
      const placed = async (who: Who, c?: string, key?: string) =>
        (ok(await ask(who, PLACE, order(c, key)), `${who} places`).placeOrder as { order: { orderId: string; customerId: string } }).order;
      expect((await placed('customer', 'c-a')).customerId).toBe('c-a');
      expect((await placed('customer')).customerId).toBe('c-a');
      expect((await placed('service', 'c-z')).customerId).toBe('c-z');
      await expectCode(ask, ['customer'], PLACE, order('c-b'), 'FORBIDDEN');
      await expectCode(ask, NOT_ORDER_USERS, PLACE, order('c-a'), 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], PLACE, order('c-a'), 'UNAUTHENTICATED');
      // Keys are per caller: B reusing A's key places its own order and learns nothing of A's.
      const a = await placed('customer', undefined, 'reused-key');
      const b = await placed('customerB', undefined, 'reused-key');
      expect(b.orderId).not.toBe(a.orderId);
      expect(b.customerId).toBe('c-b');
      expect((await placed('customer', undefined, 'reused-key')).orderId).toBe(a.orderId);
    },
  ],
  order: [
    async (ask, s) => {
      const { orderA, orderB } = s();
      const get = async (who: Who, id: string) =>
        (ok(await ask(who, ORDER, { id }), `${who} order`).order as { order: { orderId: string } | null }).order;
      for (const who of ['operator', 'service', 'customer'] as Who[]) expect((await get(who, orderA))?.orderId).toBe(orderA);
      expect(await get('customer', orderB)).toBeNull();
      expect(await get('customerB', orderA)).toBeNull();
      await expectCode(ask, NOT_ORDER_USERS, ORDER, { id: orderA }, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], ORDER, { id: orderA }, 'UNAUTHENTICATED');
    },
  ],
  orders: [
    async (ask, s) => {
      const list = async (who: Who) =>
        (ok(await ask(who, ORDERS), `${who} orders`).orders as { nodes: { orderId: string; customerId: string }[] }).nodes;
      const a = await list('customer');
      expect(a.map((o) => o.orderId)).toContain(s().orderA);
      expect(new Set(a.map((o) => o.customerId))).toEqual(new Set(['c-a']));
      expect((await list('operator')).map((o) => o.orderId)).toEqual(expect.arrayContaining([s().orderA, s().orderB]));
      // Unfiltered: bounded by a customer's own scope, refused for anyone else.
      expect(
        (ok(await ask('customer', UNBOUNDED_ORDERS), 'customer unbounded').orders as { nodes: unknown[] }).nodes.length,
      ).toBeGreaterThan(0);
      await expectCode(ask, ['operator', 'service'], UNBOUNDED_ORDERS, {}, 'FILTER_REQUIRED');
      await expectCode(ask, NOT_ORDER_USERS, ORDERS, {}, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], ORDERS, {}, 'UNAUTHENTICATED');
    },
  ],
  orderReport: [
    async (ask) => {
      const vars = { from: new Date(Date.now() - 86400000).toISOString(), to: new Date(Date.now() + 86400000).toISOString() };
      const report = async (who: Who) =>
        ok(await ask(who, ORDER_REPORT, vars), `${who} order report`).orderReport as { groups: unknown[]; suppressedGroups: number };
      const all = await report('operator');
      expect(all.groups.length).toBeGreaterThan(0);
      expect(all.suppressedGroups).toBe(0);
      // Fewer than five customers in the window: an analyst sees no group, only that some were suppressed.
      expect(await report('analyst')).toEqual({ groups: [], suppressedGroups: all.groups.length });
      await expectCode(ask, ['customer', 'teacher', 'student'], ORDER_REPORT, vars, 'FORBIDDEN');
      await expectCode(ask, ['anonymous'], ORDER_REPORT, vars, 'UNAUTHENTICATED');
    },
  ],
};
