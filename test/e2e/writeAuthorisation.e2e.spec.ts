// Write authorisation over GraphQL against a running gateway: the resolvers pass the caller's
// principal to the services, which decide what it may write (a teacher's schools, a customer's own
// orders); changedBy is shown to operators and services only.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { MoveFitnessResultDocument, PlaceOrderAuthoredDocument, RecordFitnessResultAuthoredDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { customerOf, teacherOf } from '../support/principals';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(60000);

describe('write authorisation over GraphQL', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark({ ...env.settings, roles: ['gateway'] }, { migrate: false });
    url = app.gateway!.url;
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const jump = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' };

  it("records as a teacher of the school (changedBy hidden), refuses another school and a move out of the teacher's schools", async () => {
    const teacher = await authHeaderFor(env.settings, teacherOf('teacher-e2e', 77));
    const rec = await execute(url, RecordFitnessResultAuthoredDocument, { input: jump }, teacher);
    expect(rec.errors).toBeUndefined();
    expect(rec.data!.recordFitnessResult.result).toMatchObject({ schoolId: 77, version: 1, changedBy: null });
    const dataId = rec.data!.recordFitnessResult.result.dataId;

    const other = await execute(url, RecordFitnessResultAuthoredDocument, { input: { ...jump, schoolId: 78 } }, teacher);
    expect(other.errors?.[0]).toMatchObject({ message: 'a result of school 78 is outside your scope', extensions: { code: 'FORBIDDEN' } });

    const move = { dataId, expectedVersion: 1, result: '2.31', unit: 'm', schoolId: 78 };
    const refused = await execute(url, MoveFitnessResultDocument, move, teacher);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // An operator moves it and sees who did; afterwards the teacher of 77 is told it does not exist.
    const operator = await authHeader(env.settings, 'operator');
    const moved = await execute(url, MoveFitnessResultDocument, move, operator);
    expect(moved.data!.correctFitnessResult.result).toMatchObject({ schoolId: 78, version: 2, changedBy: 'test-operator' });
    const gone = await execute(url, MoveFitnessResultDocument, { ...move, expectedVersion: 2, schoolId: null }, teacher);
    expect(gone.errors?.[0]).toMatchObject({ message: `fitness result ${dataId} does not exist`, extensions: { code: 'NOT_FOUND' } });
  });

  it("places a customer's order without customerId, refuses another customer's, and shows changedBy to operators only", async () => {
    const customer = await authHeaderFor(env.settings, customerOf('user-e2e', 'cust-e2e'));
    const input = { currency: 'EUR', idempotencyKey: 'e2e-own', items: [{ sku: 'A', quantity: 1, unitPrice: '2.50' }] };
    const own = await execute(url, PlaceOrderAuthoredDocument, { input }, customer);
    expect(own.errors).toBeUndefined();
    expect(own.data!.placeOrder.order).toMatchObject({ customerId: 'cust-e2e', changedBy: null });

    const foreign = await execute(
      url,
      PlaceOrderAuthoredDocument,
      { input: { ...input, idempotencyKey: 'e2e-x', customerId: 'cust-other' } },
      customer,
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const operator = await authHeader(env.settings, 'operator');
    const missing = await execute(url, PlaceOrderAuthoredDocument, { input: { ...input, idempotencyKey: 'e2e-op' } }, operator);
    expect(missing.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const placed = await execute(
      url,
      PlaceOrderAuthoredDocument,
      { input: { ...input, idempotencyKey: 'e2e-op', customerId: 'cust-e2e' } },
      operator,
    );
    expect(placed.data!.placeOrder).toMatchObject({ replayed: false, order: { customerId: 'cust-e2e', changedBy: 'test-operator' } });
  });
});
