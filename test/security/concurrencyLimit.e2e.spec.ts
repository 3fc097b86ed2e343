// The limit on requests in progress per principal (RATE_LIMIT_CONCURRENT, issue #29), on a real gateway.
// Requests that stay in progress without a timer: reads that wait for the caller's own write
// (consistency: { atLeast: [token] }) on a stack where no relay or projector runs, so the write can
// never become visible and each read waits its whole maxWaitMs. tidemark_consistency_waits_open says
// when all of them are waiting; the next request of that principal is refused at once (429,
// Retry-After, RATE_LIMITED, counted as reason "concurrency"), another principal's is not, and the
// places come back when the reads end.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import { RywLookupDocument, RywRecordDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { teacherOf } from '../support/principals';
import { metricTotal } from '../support/readYourWrites';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(180000);

const CONCURRENT = 3;

describe('requests in progress per principal', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;

  beforeAll(async () => {
    env = await createTestEnv();
    // The gateway alone: no relay publishes the write and no projector applies it.
    app = await startTidemark({ ...env.settings, roles: ['gateway'], rateLimitConcurrent: CONCURRENT }, { migrate: false });
    url = app.gateway!.url;
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  /** A cheap request: its HTTP status, Retry-After and error code. */
  async function health(headers: Record<string, string>) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"query":"{ health { status } }"}',
    });
    const body = (await res.json()) as { errors?: { message: string; extensions: { code: string } }[] };
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      code: body.errors?.[0]?.extensions.code,
      message: body.errors?.[0]?.message,
    };
  }

  it('answers a principal with more requests in progress than RATE_LIMIT_CONCURRENT with 429 RATE_LIMITED', async () => {
    const teacher = await authHeaderFor(env.settings, teacherOf('limits-teacher-77', 77));
    const input = { detectId: 41000, userId: 1, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' };
    const written = (await execute(url, RywRecordDocument, { input }, teacher)).data!.recordFitnessResult;
    const dataId = written.result.dataId;
    // The longest wait allowed (CONSISTENCY_WAIT_MAX_MS): the reads hold their places until it runs out.
    const consistency = { atLeast: [written.consistencyToken], maxWaitMs: env.settings.consistencyWaitMaxMs };
    const reads = Array.from({ length: CONCURRENT }, () => execute(url, RywLookupDocument, { dataId, consistency }, teacher));
    await waitFor(async () => (await metricTotal(app, 'tidemark_consistency_waits_open')) === CONCURRENT, {
      what: `${CONCURRENT} reads waiting for the write`,
    });

    const before = await metricTotal(app, 'tidemark_requests_refused_total', { reason: 'concurrency' });
    expect(await health(teacher)).toEqual({
      status: 429,
      retryAfter: '1',
      code: 'RATE_LIMITED',
      message: `too many requests in progress at once (at most ${CONCURRENT})`,
    });
    expect(await metricTotal(app, 'tidemark_requests_refused_total', { reason: 'concurrency' })).toBe(before + 1);
    // Per principal: another caller is served meanwhile.
    expect((await health(await authHeader(env.settings, 'operator'))).status).toBe(200);

    // The waits run out with the write named as not yet visible (nothing projects it), and give their places back.
    const missing = [{ domain: 'fitness', aggregateId: dataId, version: 1, reason: 'NOT_YET_VISIBLE' }];
    for (const r of await Promise.all(reads)) {
      expect(r.status).toBe(200);
      expect(r.data?.fitnessResult).toMatchObject({ result: null, freshness: { missing } });
    }
    expect(await health(teacher)).toMatchObject({ status: 200, code: undefined });
  });
});
