// SIGTERM of a gateway process with requests in flight, and the second signal. The gateway is a real
// `node --import tsx src/main.ts --roles gateway` process against the real engines. Its requests are held
// inside it, not in a socket queue: another session holds shard 0's outbox_events (LOCK TABLES ... WRITE),
// so each recordFitnessResult (a student of shard 0) waits at its outbox INSERT and each parkedEvents
// (which reads shard 0 first) at its SELECT, and the test sees every one of them waiting in MariaDB's
// process list before the signal. On SIGTERM: /readyz answers 503 `draining`, the port refuses new
// connections, and once the lock goes every request in flight gets its normal answer and the process
// exits 0 by itself within the drain bound. A second signal during that drain exits at once with 130
// (src/main.ts), the requests still held then being cut off.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { shardForUser } from '../../src/domains/fitness/sharding';
import { shardKnex } from '../../src/infra/mysql/fromMysql';
import { waitFor } from '../../src/shared/lifecycle';
import { roleProcessEnv, startRoleProcess, type RoleProcess } from '../faults/support/roleProcesses';
import { executeRaw, isFetchFailure, type GraphQLResponse } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

/** The drain bound the role processes are held to (test/e2e/roleDrain.e2e.spec.ts, docs/faults.md). */
const GRACE_MS = 20000;
const MUTATIONS = 4;
const QUERIES = 3;

const RECORD = 'mutation R($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId version userId } } }';
const PARKED = 'query P { parkedEvents(first: 10) { eventId } }';

/** A request's HTTP answer, or how it failed (fetch's errors are of Node's realm, not the test's). */
type Answer = { answer: GraphQLResponse<Record<string, unknown>> } | { failed: string };

describe('signals to a gateway process with requests in flight', () => {
  let env: TestEnv;
  let logDir: string;
  const started: RoleProcess[] = [];
  /** Students whose results live on shard 0 (the locked one). */
  let students: number[];

  beforeAll(async () => {
    env = await createTestEnv();
    logDir = mkdtempSync(join(tmpdir(), 'tidemark-gw-signals-'));
    const count = env.settings.fitnessShardDatabases.length;
    students = [];
    for (let u = 710001; students.length < MUTATIONS; u++) if (shardForUser(u, count) === 0) students.push(u);
  });
  afterAll(async () => {
    for (const p of started) if (!p.exited()) await p.kill();
    if (!process.env.KEEP_DRAIN_LOGS) rmSync(logDir, { recursive: true, force: true });
    await env?.cleanup();
  });

  async function startGateway(name: string): Promise<RoleProcess> {
    const p = await startRoleProcess({ name, roles: ['gateway'], env: roleProcessEnv(env.settings), logDir });
    started.push(p);
    return p;
  }

  /** Statements of this suite's shard 0 database waiting for the lock, by their first word. */
  async function waiting(): Promise<{ inserts: number; selects: number }> {
    const rows = (await env.resources.mysql
      .shard(0)
      .db.raw(`SELECT info FROM information_schema.processlist WHERE db = ? AND state LIKE 'Waiting for table%lock'`, [
        env.settings.fitnessShardDatabases[0],
      ])) as [{ info: string | null }[], unknown];
    const words = rows[0].map((r) => (r.info ?? '').trimStart().slice(0, 6).toLowerCase());
    return { inserts: words.filter((w) => w === 'insert').length, selects: words.filter((w) => w === 'select').length };
  }

  /** Holds shard 0's outbox_events until release(): requests that touch it wait inside the gateway. */
  async function lockOutbox(): Promise<{ release(): Promise<void> }> {
    const locker: Knex = shardKnex(env.settings, 0, 1);
    await locker.raw('LOCK TABLES outbox_events WRITE');
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        await locker.raw('UNLOCK TABLES').finally(() => locker.destroy());
      },
    };
  }

  /** Sends the mutations and queries, and waits until each one is held at the lock inside the gateway. */
  async function inFlight(gw: RoleProcess, tag: string): Promise<Promise<Answer>[]> {
    const service = await authHeader(env.settings, 'service');
    const operator = await authHeader(env.settings, 'operator');
    const settle = (p: Promise<GraphQLResponse<Record<string, unknown>>>): Promise<Answer> =>
      p.then(
        (answer) => ({ answer }),
        (err: unknown) => ({ failed: isFetchFailure(err) ? 'transport' : String(err) }),
      );
    const requests = [
      ...students.map((userId, i) =>
        settle(
          executeRaw(
            gw.url!,
            RECORD,
            {
              input: {
                detectId: 71001,
                userId,
                projectId: 3,
                schoolId: 77,
                grade: 5,
                result: '2.21',
                unit: 'm',
                idempotencyKey: `${tag}-${i}`,
              },
            },
            service,
          ),
        ),
      ),
      ...Array.from({ length: QUERIES }, () => settle(executeRaw(gw.url!, PARKED, {}, operator))),
    ];
    await waitFor(
      async () => {
        const w = await waiting();
        return w.inserts === MUTATIONS && w.selects === QUERIES;
      },
      { timeoutMs: 60000, intervalMs: 100, what: `${MUTATIONS} inserts and ${QUERIES} selects waiting for the lock` },
    );
    return requests;
  }

  async function readyz(p: RoleProcess): Promise<{ status: number; body: { status?: string } } | 'refused'> {
    try {
      const res = await fetch(`${p.opsUrl}/readyz`);
      return { status: res.status, body: (await res.json()) as { status?: string } };
    } catch {
      return 'refused';
    }
  }

  /** Whether a new TCP connection to the gateway's port is refused. */
  function refused(p: RoleProcess): Promise<boolean> {
    const { hostname, port } = new URL(p.url!);
    return new Promise((done) => {
      const socket = connect({ host: hostname, port: Number(port) });
      socket.once('connect', () => {
        socket.destroy();
        done(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED'));
    });
  }

  it('on SIGTERM answers every request in flight normally, refuses new connections, reports draining and exits 0', async () => {
    const gw = await startGateway('gateway-drain');
    expect(await refused(gw)).toBe(false);
    expect(await readyz(gw)).toMatchObject({ status: 200 });
    const lock = await lockOutbox();
    let requests: Awaited<ReturnType<typeof inFlight>>;
    let stopping: ReturnType<RoleProcess['stop']>;
    try {
      requests = await inFlight(gw, 'drain');
      stopping = gw.stop(GRACE_MS);
      // While the requests are held: not ready for a load balancer, and the port takes no new connection.
      await waitFor(
        async () => {
          const r = await readyz(gw);
          return r !== 'refused' && r.status === 503 && r.body.status === 'draining';
        },
        { timeoutMs: 30000, what: '/readyz to answer 503 draining' },
      );
      await waitFor(() => refused(gw), { timeoutMs: 30000, what: 'new connections to be refused' });
      expect(gw.exited()).toBe(false);
      // Still held: nothing in flight was answered or dropped by the signal.
      expect(await waiting()).toEqual({ inserts: MUTATIONS, selects: QUERIES });
    } finally {
      await lock.release();
    }

    const answers = await Promise.all(requests);
    for (const [i, a] of answers.entries()) {
      expect(a).not.toHaveProperty('failed');
      const r = (a as { answer: GraphQLResponse<Record<string, unknown>> }).answer;
      expect(r.errors).toBeUndefined();
      expect(r.status).toBe(200);
      if (i < MUTATIONS)
        expect(r.data).toEqual({ recordFitnessResult: { result: expect.objectContaining({ version: 1, userId: students[i] }) } });
      else expect(r.data).toEqual({ parkedEvents: [] });
    }
    const stopped = await stopping;
    expect(stopped).toMatchObject({ drained: true, forced: false, exitCode: 0, signal: null });
    expect(stopped.ms).toBeLessThan(GRACE_MS);
    // The writes answered were committed, not lost with the process.
    const shard = env.resources.mysql.shard(0).db;
    const ids = answers.slice(0, MUTATIONS).map((a) => {
      const { dataId } = (
        (a as { answer: GraphQLResponse<Record<string, unknown>> }).answer.data!.recordFitnessResult as { result: { dataId: string } }
      ).result;
      return `fitness-result-${dataId}-v1`;
    });
    expect(await shard('outbox_events').whereIn('event_id', ids).pluck('event_id')).toHaveLength(MUTATIONS);
    expect(readFileSync(gw.logFile, 'utf8')).toContain('draining and stopping');
  }, 240000);

  it('exits at once with code 130 on a second signal during the drain', async () => {
    const gw = await startGateway('gateway-second-signal');
    const lock = await lockOutbox();
    try {
      const requests = await inFlight(gw, 'second');
      const stopping = gw.stop(GRACE_MS);
      await waitFor(
        async () => {
          const r = await readyz(gw);
          return r !== 'refused' && r.status === 503 && r.body.status === 'draining';
        },
        { timeoutMs: 30000, what: 'the drain to begin' },
      );
      // The drain cannot end by itself while the lock holds its requests: only the second signal ends it.
      expect(gw.exited()).toBe(false);
      process.kill(gw.pid, 'SIGINT');
      const stopped = await stopping;
      expect(stopped).toMatchObject({ drained: false, forced: false, exitCode: 130, signal: null });
      expect(stopped.ms).toBeLessThan(GRACE_MS);
      // The requests still held were cut off with the process, none answered.
      expect(await Promise.all(requests)).toEqual(Array.from({ length: MUTATIONS + QUERIES }, () => ({ failed: 'transport' })));
      const log = readFileSync(gw.logFile, 'utf8');
      expect(log.match(/draining and stopping/g)).toHaveLength(1);
    } finally {
      await lock.release();
    }
  }, 240000);
});
