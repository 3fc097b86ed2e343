// writeVisible on the real stack: subscribers on two gateways each get exactly one event when the
// write is projected, then completion; a gateway restarted mid-wait answers a resubscribing client
// when it happens, and a client that resubscribes after the fact gets the answer at once (the first
// check). Another caller's token is VALIDATION_FAILED (the authorisation matrix covers every role).
// An idempotent replay's token names the first write.
import { waitFor } from '../../src/shared/lifecycle';
import { RywLookupDocument, RywRecordDocument, RywWriteVisibleDocument, type RywWriteVisibleSubscription } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { metricTotal, OTHER_TEACHER, startRoles, TEACHER, type RoleSet } from '../support/readYourWrites';
import { subscribe, type Collected } from '../support/subscriptionClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeaderFor } from '../support/tokens';
import type { Tidemark } from '../../src/app/start';

jest.setTimeout(180000);

describe('writeVisible', () => {
  let env: TestEnv;
  let roles: RoleSet;
  let teacher: string;
  const subs: Collected<RywWriteVisibleSubscription>[] = [];

  beforeAll(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50, projectorFlushIntervalMs: 20, freshnessCacheMs: 0 });
    roles = await startRoles(env.settings, 2);
    teacher = (await authHeaderFor(env.settings, TEACHER)).authorization!;
    await roles.startRelay();
  });
  afterAll(async () => {
    for (const s of subs) await s.dispose().catch(() => undefined);
    await roles?.stopAll();
    await env?.cleanup();
  });

  const watch = (g: Tidemark, token: string, authorization = teacher) => {
    const s = subscribe(g.gateway!.wsUrl, RywWriteVisibleDocument, { token }, authorization);
    subs.push(s);
    return s;
  };
  const waiting = (g: Tidemark, n: number) =>
    waitFor(async () => (await metricTotal(g, 'tidemark_consistency_waits_open')) === n, { what: `${n} waiting on the gateway` });

  it('fires exactly once per write on two gateways and across a restart of one of them', async () => {
    const [a, b] = roles.gateways as [Tidemark, Tidemark];
    const rec = await execute(
      a.gateway!.url,
      RywRecordDocument,
      { input: { detectId: 32000, userId: 1, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' } },
      { authorization: teacher },
    );
    const { consistencyToken: token, result } = rec.data!.recordFitnessResult;
    const onA = watch(a, token);
    const onB = watch(b, token);
    await waiting(a, 1);
    await waiting(b, 1);

    // Gateway B restarts while its client waits; the client resubscribes on the new instance.
    await b.stop();
    const b2 = await roles.startGateway();
    const onB2 = watch(b2, token);
    await waiting(b2, 1);
    expect(onA.events).toEqual([]);

    await roles.startProjector();
    const visible = { visible: true, reason: null, missing: [] };
    for (const s of [onA, onB2]) await waitFor(() => s.completed, { timeoutMs: 60000, what: 'writeVisible to complete' });
    expect(onA.events).toEqual([{ writeVisible: visible }]);
    expect(onB2.events).toEqual([{ writeVisible: visible }]);
    expect([...onA.errors, ...onB2.errors]).toEqual([]);
    // The restarted gateway's own subscriber never saw an event from the old instance.
    expect(onB.events).toEqual([]);

    // Resubscribing once it is visible: the answer at once, from the first check.
    const late = watch(b2, token);
    await waitFor(() => late.completed, { what: 'the late subscription to complete' });
    expect(late.events).toEqual([{ writeVisible: visible }]);
    expect(await metricTotal(b2, 'tidemark_consistency_waits_open')).toBe(0);
    expect(result.version).toBe(1);
  });

  it('an idempotent replay returns a token for the first write', async () => {
    const url = roles.gateways[0]!.gateway!.url;
    const input = {
      detectId: 32002,
      userId: 3,
      projectId: 3,
      schoolId: 77,
      grade: 5,
      result: '2.50',
      unit: 'm',
      idempotencyKey: 'ryw-replay',
    };
    const first = (await execute(url, RywRecordDocument, { input }, { authorization: teacher })).data!.recordFitnessResult;
    const again = (await execute(url, RywRecordDocument, { input }, { authorization: teacher })).data!.recordFitnessResult;
    expect(again).toMatchObject({ replayed: true, result: first.result });
    const consistency = { atLeast: [again.consistencyToken], maxWaitMs: 10000 };
    const r = await execute(url, RywLookupDocument, { dataId: first.result.dataId, consistency }, { authorization: teacher });
    expect(r.data!.fitnessResult).toMatchObject({ result: { version: 1, result: '2.500' }, freshness: { missing: [] } });
  });

  it('refuses another caller’s token (VALIDATION_FAILED), as if it were forged', async () => {
    const a = roles.gateways[0];
    const rec = await execute(
      a!.gateway!.url,
      RywRecordDocument,
      { input: { detectId: 32001, userId: 2, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' } },
      { authorization: teacher },
    );
    const token = rec.data!.recordFitnessResult.consistencyToken;
    const other = watch(a!, token, (await authHeaderFor(env.settings, OTHER_TEACHER)).authorization!);
    await waitFor(() => other.errors.length > 0, { what: 'the other caller refused' });
    expect(JSON.stringify(other.errors)).toContain('VALIDATION_FAILED');
    expect(other.events).toEqual([]);
  });
});
