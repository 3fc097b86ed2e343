// Read your own writes on the real stack: a mutation's consistencyToken passed to a read makes the
// first answer include that write (the teacher's story, 50 times, under a steady write load); with
// the projector held back the read returns after maxWaitMs naming what is missing; forged, tampered
// and other callers' tokens are VALIDATION_FAILED; a dead-lettered write ends the wait at once with
// its reason; 1,000 waiting reads cost no ClickHouse query meanwhile.
import { waitFor } from '../../src/shared/lifecycle';
import { RywCorrectDocument, RywLookupDocument, RywRecordDocument, RywReportDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { wsClient, wsQuery } from '../support/subscriptionClient';
import { metricTotal, OTHER_TEACHER, sendPoisonVersion, startRoles, TEACHER, type RoleSet } from '../support/readYourWrites';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';
import { startWriteLoad } from '../support/writeLoad';

jest.setTimeout(400000);

describe('read your own writes', () => {
  let env: TestEnv;
  let roles: RoleSet;
  let url: string;
  let teacher: Record<string, string>;
  let userId = 700_000;

  beforeAll(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50, projectorFlushIntervalMs: 20, freshnessCacheMs: 0 });
    roles = await startRoles(env.settings, 1);
    url = roles.gateways[0]!.gateway!.url;
    teacher = await authHeaderFor(env.settings, TEACHER);
  });
  afterAll(async () => {
    await roles?.stopAll();
    await env?.cleanup();
  });

  const record = async (detectId: number, result = '2.21') => {
    const r = await execute(
      url,
      RywRecordDocument,
      { input: { detectId, userId: userId++, projectId: 3, schoolId: 77, grade: 5, result, unit: 'm' } },
      teacher,
    );
    expect(r.errors).toBeUndefined();
    return r.data!.recordFitnessResult;
  };
  const lookup = async (dataId: string, atLeast: string[], maxWaitMs: number, headers = teacher) =>
    execute(url, RywLookupDocument, { dataId, consistency: { atLeast, maxWaitMs } }, headers);

  it('teacher story: record 2.21, correct to 2.31, the report with the correction’s token shows 2.31 first time, 50 times under load', async () => {
    await roles.startRelay();
    await roles.startProjector();
    const load = startWriteLoad({ url, headers: await authHeader(env.settings, 'service'), detectId: 29999, perSecond: 30 });
    try {
      for (let i = 0; i < 50; i++) {
        const detectId = 30000 + i;
        const rec = await record(detectId);
        const cor = await execute(url, RywCorrectDocument, { dataId: rec.result.dataId, expectedVersion: 1, result: '2.31' }, teacher);
        expect(cor.errors).toBeUndefined();
        const token = cor.data!.correctFitnessResult.consistencyToken;
        const r = await execute(
          url,
          RywReportDocument,
          { detectId, projectId: 3, consistency: { atLeast: [token], maxWaitMs: 10000 } },
          teacher,
        );
        expect(r.errors).toBeUndefined();
        expect({ i, groups: r.data!.fitnessReport.groups, missing: r.data!.fitnessReport.freshness.missing }).toEqual({
          i,
          groups: [{ key: 77, count: 1, max: '2.310' }],
          missing: [],
        });
      }
    } finally {
      const { ok, failed } = await load.stop();
      expect({ failed, failures: load.failures() }).toEqual({ failed: 0, failures: [] });
      expect(ok).toBeGreaterThan(0);
    }
  });

  it('forged, tampered and another caller’s tokens are VALIDATION_FAILED, alike', async () => {
    const rec = await record(31001);
    const [prefix, body, mac] = rec.consistencyToken.split('.') as [string, string, string];
    const json = JSON.parse(Buffer.from(body, 'base64url').toString()) as { s: string; w: [string, string, number][] };
    const widened = Buffer.from(JSON.stringify({ ...json, w: [...json.w, ['f', '1', 1]] })).toString('base64url');
    const cases: [string, Record<string, string>][] = [
      [`${prefix}.${body}.${Buffer.alloc(32, 7).toString('base64url')}`, teacher],
      [`${prefix}.${widened}.${mac}`, teacher],
      ['not a token', teacher],
      [rec.consistencyToken, await authHeaderFor(env.settings, OTHER_TEACHER)],
    ];
    for (const [token, headers] of cases) {
      const r = await lookup(rec.result.dataId, [token], 100, headers);
      expect({ code: r.errors?.[0]?.extensions?.code, message: r.errors?.[0]?.message, data: r.data ?? null }).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'invalid consistency token',
        data: null,
      });
    }
    const tooLong = await lookup(rec.result.dataId, [rec.consistencyToken], 10001);
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'consistency.maxWaitMs' } });
  });

  it('with the projector held back, the read answers after maxWaitMs with CATCHING_UP and the missing version named', async () => {
    await roles.stopProjector();
    const rec = await record(31002);
    const r = await lookup(rec.result.dataId, [rec.consistencyToken], 1500);
    expect(r.errors).toBeUndefined();
    expect(r.data!.fitnessResult).toMatchObject({
      result: null,
      freshness: {
        status: 'CATCHING_UP',
        missing: [{ domain: 'fitness', aggregateId: rec.result.dataId, version: 1, reason: 'NOT_YET_VISIBLE' }],
      },
    });
  });

  it('1,000 concurrent waiting reads cost no ClickHouse query while they wait, and answer when the write is applied', async () => {
    await roles.stopRelay();
    await roles.startProjector();
    const rec = await record(31003);
    const gw = roles.gateways[0]!;
    // Over graphql-ws, 100 operations per connection: 1,000 HTTP requests in flight would need 1,000 sockets.
    const sockets = Array.from({ length: 10 }, () => wsClient(gw.gateway!.wsUrl, teacher.authorization!));
    const vars = { dataId: rec.result.dataId, consistency: { atLeast: [rec.consistencyToken], maxWaitMs: 10000 } };
    const reads = Array.from({ length: 1000 }, (_, i) => wsQuery(sockets[i % 10]!, RywLookupDocument, vars));
    await waitFor(async () => (await metricTotal(gw, 'tidemark_consistency_waits_open')) === 1000, {
      timeoutMs: 9000,
      what: '1,000 reads waiting',
    });
    const before = await metricTotal(gw, 'tidemark_read_model_queries_total');
    // Still all waiting a second later (polled), and not one read-model query meanwhile.
    const since = Date.now();
    await waitFor(async () => Date.now() - since > 1000 && (await metricTotal(gw, 'tidemark_consistency_waits_open')) === 1000, {
      what: 'a second of waiting',
    });
    expect(await metricTotal(gw, 'tidemark_read_model_queries_total')).toBe(before);
    await roles.startRelay();
    const answers = await Promise.all(reads);
    await Promise.all(sockets.map((c) => c.dispose()));
    const missing = answers.filter((a) => a.data?.fitnessResult.freshness.missing.length !== 0).length;
    expect({ missing, errors: answers.filter((a) => a.errors).length }).toEqual({ missing: 0, errors: 0 });
  });

  it('a dead-lettered write ends the wait at once with PROJECTOR_DEAD_LETTERED', async () => {
    await roles.stopRelay(); // the real event stays in the outbox: only the poison version reaches the projector
    await roles.startProjector();
    const rec = await record(31004);
    const waiting = lookup(rec.result.dataId, [rec.consistencyToken], 10000);
    await sendPoisonVersion(env.resources, Number(rec.result.dataId), 1);
    const r = await waiting;
    // At timeout it would be CATCHING_UP with NOT_YET_VISIBLE: STALE with the reason is the dead letter's answer.
    expect(r.data!.fitnessResult.freshness).toMatchObject({
      status: 'STALE',
      reason: 'PROJECTOR_DEAD_LETTERED',
      missing: [{ aggregateId: rec.result.dataId, version: 1, reason: 'PROJECTOR_DEAD_LETTERED' }],
    });
  });
});
