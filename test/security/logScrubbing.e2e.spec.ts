// No secrets or personal data in logs (issue #29). A capturing test run (npm test) searches every log
// line of every suite afterwards (test/support/logCheck.ts); this suite makes sure the worst cases are
// among them: a gateway, relay and projector at debug level get the traffic the other suites drive
// (writes and reads of a student's results and a customer's order, refused tokens, validation errors,
// version conflicts) plus a real SQL failure whose statement carries the student's values (the outbox
// table is renamed away mid-run). Every line is then searched for the student's id, the result, the
// customer id, the token secret and every bearer token used, and by the run's scanner (logLeaks.ts):
// nothing may appear, while the failure itself is logged. Its file is in the capture folder if any.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { SignJWT } from 'jose';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { createLogger } from '../../src/shared/logger';
import { executeRaw } from '../support/graphqlClient';
import { captureFile } from '../support/logCapture';
import { scanLog } from '../support/logLeaks';
import { createTestEnv, TEST_JWT_SECRET, type TestEnv } from '../support/testEnv';
import { tokenFor } from '../support/tokens';

jest.setTimeout(180000);

const STUDENT = 8675309;
const RESULT = '3.187';
const CUSTOMER = 'cust-private-4242';
const RECORD = `mutation($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId version } } }`;

describe('log scrubbing', () => {
  let env: TestEnv;
  let app: Tidemark;
  let dir: string | undefined;
  let file: string;
  const tokens: string[] = [];

  beforeAll(async () => {
    const captured = captureFile('gateway');
    dir = captured === undefined ? mkdtempSync(join(tmpdir(), 'tidemark-logs-')) : undefined;
    file = captured ?? join(dir!, 'gateway.log');
    env = await createTestEnv({ relayPollIntervalMs: 50, projectorFlushIntervalMs: 20, freshnessCacheMs: 0 });
    const logger = createLogger('debug', {}, pino.destination({ dest: file, sync: true }));
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false, logger });
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('logs no student id, result, customer id, secret or token, whatever happens', async () => {
    const url = app.gateway!.url;
    const service = await tokenFor(env.settings, 'service');
    const operator = await tokenFor(env.settings, 'operator');
    const wrongSecret = await new SignJWT({ roles: ['operator'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer(env.settings.authIssuer)
      .setAudience(env.settings.authAudience)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-0123456789abcdefghij'));
    tokens.push(service, operator, wrongSecret);
    const as = (t: string) => ({ authorization: `Bearer ${t}` });
    const input = { detectId: 91, userId: STUDENT, projectId: 3, schoolId: 5, grade: 4, result: RESULT, unit: 'm' };

    const rec = await executeRaw(url, RECORD, { input }, as(service));
    expect(rec.errors).toBeUndefined();
    const { dataId } = (rec.data!.recordFitnessResult as { result: { dataId: string } }).result;
    await executeRaw(url, 'query($u: Int!) { fitnessResults(filter: { userId: $u }) { nodes { result } } }', { u: STUDENT }, as(operator));
    await executeRaw(
      url,
      `mutation($id: ID!) { correctFitnessResult(dataId: $id, expectedVersion: 9, result: "${RESULT}", unit: "m") { result { version } } }`,
      { id: dataId },
      as(service),
    );
    await executeRaw(url, RECORD, { input: { ...input, result: 'not-a-number' } }, as(service));
    await executeRaw(url, RECORD, { input }, as(wrongSecret));
    await executeRaw(
      url,
      'mutation($i: PlaceOrderInput!) { placeOrder(input: $i) { order { orderId } } }',
      { i: { customerId: CUSTOMER, currency: 'EUR', idempotencyKey: 'k-log-1', items: [{ sku: 'S', quantity: 1, unitPrice: '1.00' }] } },
      as(service),
    );
    await executeRaw(url, 'query($c: String) { orders(filter: { customerId: $c }) { nodes { orderId } } }', { c: CUSTOMER }, as(operator));

    // A real SQL failure carrying the student's values: the outbox table disappears under a write.
    const shards = env.settings.fitnessShardDatabases.map((_, i) => env.resources.mysql.shard(i).db);
    for (const db of shards) await db.raw('RENAME TABLE outbox_events TO outbox_events_away');
    const failed = await executeRaw(url, RECORD, { input: { ...input, detectId: 92 } }, as(service));
    for (const db of shards) await db.raw('RENAME TABLE outbox_events_away TO outbox_events');
    expect(failed.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');

    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    console.log(`log scrubbing: ${lines.length} log lines searched`);
    expect(lines.some((l) => l.includes('"level":50'))).toBe(true); // the SQL failure was logged
    const forbidden = [String(STUDENT), RESULT, CUSTOMER, TEST_JWT_SECRET, ...tokens];
    const leaks = lines.flatMap((l, i) => forbidden.filter((f) => l.includes(f)).map((f) => `line ${i + 1}: ${f.slice(0, 20)}`));
    expect(leaks).toEqual([]);
    expect(scanLog('gateway.log', lines.join('\n'), [{ name: 'test JWT secret', value: TEST_JWT_SECRET }])).toEqual([]);
  });
});
