// A client that goes away stops costing the gateway (issue #29, "queries cancelled when the client goes
// away"): HTTP reads waiting for a consistency token whose write will not be visible for a minute (the
// relay is held back) are dropped by their client, and their waits end at once, each freeing its slot
// of CONSISTENCY_MAX_WAITING, while another caller's identical wait carries on. The ClickHouse side (a
// running read killed on the server by its query_id) is src/projections/read/readCancellation.int.spec.ts.
import { waitFor } from '../../src/shared/lifecycle';
import { executeRaw } from '../support/graphqlClient';
import { metricTotal, startRoles, TEACHER, type RoleSet } from '../support/readYourWrites';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeaderFor } from '../support/tokens';

jest.setTimeout(180000);

const RECORD = `mutation($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId } consistencyToken } }`;
const WAIT = `query($dataId: ID!, $t: String!) {
  fitnessResult(dataId: $dataId, consistency: { atLeast: [$t], maxWaitMs: 60000 }) { freshness { missing { version } } } }`;

describe('a client that goes away', () => {
  let env: TestEnv;
  let roles: RoleSet;

  beforeAll(async () => {
    env = await createTestEnv({ consistencyWaitMaxMs: 60000 });
    roles = await startRoles(env.settings, 1);
  });
  afterAll(async () => {
    await roles?.stopAll();
    await env?.cleanup();
  });

  it('ends its waits at once and frees their slots; another caller waiting on the same write carries on', async () => {
    const gw = roles.gateways[0]!;
    const url = gw.gateway!.url;
    const teacher = await authHeaderFor(env.settings, TEACHER);
    const input = { detectId: 29001, userId: 290001, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' };
    const rec = await executeRaw(url, RECORD, { input }, teacher);
    const { result, consistencyToken } = rec.data!.recordFitnessResult as { result: { dataId: string }; consistencyToken: string };
    const vars = JSON.stringify({ query: WAIT, variables: { dataId: result.dataId, t: consistencyToken } });
    const waitAs = (headers: Record<string, string>, signal: AbortSignal) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: vars, signal }).then(
        (r) => r.json(),
        () => 'aborted',
      );

    // The same caller's token is needed to wait on it; the other caller is a copy of the teacher's session.
    const leaving = new AbortController();
    const staying = new AbortController();
    const gone = Array.from({ length: 20 }, () => waitAs(teacher, leaving.signal));
    const other = waitAs(teacher, staying.signal);
    await waitFor(async () => (await metricTotal(gw, 'tidemark_consistency_waits_open')) === 21, { what: '21 reads waiting' });

    leaving.abort();
    expect(await Promise.all(gone)).toEqual(Array.from({ length: 20 }, () => 'aborted'));
    // A minute of waiting each, ended within seconds: only the caller that stayed still waits.
    await waitFor(async () => (await metricTotal(gw, 'tidemark_consistency_waits_open')) === 1, {
      timeoutMs: 20000,
      what: 'the 20 abandoned waits to end',
    });

    // The caller that stayed gets its answer when the write becomes visible.
    await roles.startRelay();
    await roles.startProjector();
    expect(await other).toEqual({ data: { fitnessResult: { freshness: { missing: [] } } } });
    expect(await metricTotal(gw, 'tidemark_consistency_waits_open')).toBe(0);
  });
});
