// The fault suite's own checks (support/faultActions.ts, support/storeFaults.ts) against the real
// engines: each fails with FaultNotInjectedError when its fault did not happen, and leaves the target
// process running, instead of killing it anyway and letting the cycle count. The relay check also
// passes when the fault is real: a relay process (`node --import tsx src/main.ts --roles relay`) is
// caught with rows PROCESSING under its own claim and SIGKILLed there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ident } from '../../src/infra/clickhouse/literal';
import { claimBatch } from '../../src/publication/outbox/sql/claimBatch';
import { keepOutboxBacklog, seedOutbox } from '../support/outboxSeed';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { testShards } from '../support/testShards';
import { FaultNotInjectedError, killProjectorBetweenInsertAndCommit, killRelayMidBatch } from './support/faultActions';
import { ProcessTargets } from './support/processTargets';
import { roleProcessEnv, startRoleProcess, type RoleProcess } from './support/roleProcesses';
import { connectionKiller } from './support/storeFaults';

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('fault suite preconditions', () => {
  let env: TestEnv;
  let idle: ChildProcess;
  const targets = new ProcessTargets();

  beforeAll(async () => {
    env = await createTestEnv();
    // A process that is neither relay nor projector: whatever is done to it, no fault happens.
    idle = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], { stdio: 'ignore' });
    targets.add('not-a-relay', idle.pid!);
    targets.add('not-a-projector', idle.pid!);
  });
  afterAll(async () => {
    idle?.kill('SIGKILL');
    await env?.cleanup();
  });
  const shard0 = () => env.resources.mysql.shard(0).db;

  it('fails the relay kill when the process never claims, and leaves it running', async () => {
    await seedOutbox(shard0(), env.resources.topics.events.fitness, 60);
    const err = await rejection(killRelayMidBatch(env.resources, targets, 'not-a-relay', { timeoutMs: 3000 }));
    expect(err).toBeInstanceOf(FaultNotInjectedError);
    expect(err).toMatchObject({ fault: 'relay-sigkill-mid-batch', observed: { tries: 0 } });
    expect({ killed: targets.killed, state: targets.state('not-a-relay') }).toEqual({ killed: [], state: expect.not.stringMatching(/T/) });
  });

  it("fails the relay kill when the rows in flight are under another relay's claim (a bare PROCESSING count would pass)", async () => {
    const claim = await claimBatch(shard0(), {
      limit: 1000,
      leaseMs: 60000,
      token: 'other-token',
      owner: 'another-relay',
      giveUp: () => false,
    });
    expect(claim.records.length).toBeGreaterThan(0);
    await seedOutbox(shard0(), env.resources.topics.events.fitness, 60);
    const err = await rejection(killRelayMidBatch(env.resources, targets, 'not-a-relay', { timeoutMs: 3000 }));
    expect(err).toBeInstanceOf(FaultNotInjectedError);
    expect(err).toMatchObject({ observed: { processingByAnyone: claim.records.length } });
    expect({ killed: targets.killed, state: targets.state('not-a-relay') }).toEqual({ killed: [], state: expect.not.stringMatching(/T/) });
  });

  it('fails the projector kill when no group member projected the new rows, and leaves the process running', async () => {
    const ch = env.resources.clickhouse;
    const table = `${ident(env.settings.clickhouseDatabase)}.fitness_results`;
    // Rows appear in ClickHouse past the (absent) committed offset while the target is thawed, but
    // they were not written by a member of the projector's group: a check without the assignment
    // would count them as "inserted, not committed".
    const backlog = async () => {
      setTimeout(() => {
        void ch.command({
          query: `INSERT INTO ${table} (data_id, version, kafka_partition, kafka_offset) VALUES (${Date.now() % 1_000_000}, 1, 0, 7)`,
        });
      }, 100);
    };
    const err = await rejection(
      killProjectorBetweenInsertAndCommit(env.resources, targets, 'not-a-projector', backlog, { timeoutMs: 3000 }),
    );
    expect(err).toBeInstanceOf(FaultNotInjectedError);
    expect(err).toMatchObject({ fault: 'projector-sigkill-before-commit' });
    expect((err as FaultNotInjectedError).observed.tries).toBeGreaterThan(0);
    expect({ killed: targets.killed, state: targets.state('not-a-projector') }).toEqual({
      killed: [],
      state: expect.not.stringMatching(/T/),
    });
  });

  it('catches a real relay process with rows PROCESSING under its own claim and SIGKILLs it there', async () => {
    await shard0()('outbox_events').delete();
    const logDir = mkdtempSync(join(tmpdir(), 'tidemark-preconditions-'));
    let relay: RoleProcess | undefined;
    const backlog = keepOutboxBacklog(shard0(), env.resources.topics.events.fitness);
    try {
      relay = await startRoleProcess({
        name: 'relay-precondition',
        roles: ['relay'],
        env: roleProcessEnv({ ...env.settings, relayBatchSize: 100 }),
        logDir,
      });
      targets.add(relay.name, relay.pid);
      const caught = await killRelayMidBatch(env.resources, targets, relay.name, { timeoutMs: 120000 });
      expect(caught).toMatchObject({ claimedBy: 'relay-precondition' });
      expect(caught.claimedWhenKilled).toBeGreaterThan(0);
      expect(caught.leftProcessing).toBeGreaterThan(0);
      expect(targets.killed).toEqual(['relay-precondition']);
      const left = (await shard0()('outbox_events').where({ status: 'PROCESSING', claimed_by: relay.name }).count({ n: '*' })) as {
        n: number;
      }[];
      expect(Number(left[0]!.n)).toBeGreaterThan(0);
    } finally {
      await backlog.stop();
      await relay?.kill();
      rmSync(logDir, { recursive: true, force: true });
    }
  }, 180000);

  it("fails a connection storm that finds no connection to kill, and one that kills only the suite's own pools", async () => {
    const nobody = {
      ...env.settings,
      ...testShards(['tidemark_nobody_connects_here'], env.settings),
      pgDatabase: 'tidemark_nobody_connects_here',
    };
    const idleKiller = connectionKiller(nobody, () => [idle.pid!]);
    try {
      for (const store of ['mysql', 'postgres'] as const) {
        const err = await rejection(idleKiller.storm(store, 300));
        expect(err).toBeInstanceOf(FaultNotInjectedError);
        expect(err).toMatchObject({ fault: `${store}-connections-killed`, observed: { killed: 0, ofRoles: 0 } });
      }
    } finally {
      await idleKiller.close();
    }
    // The last two tests in this file: the storms kill this suite's own pooled connections. They are real kills (a
    // bare count of killed connections would pass), but no role process lost a connection.
    const ownOnly = connectionKiller(env.settings, () => [idle.pid!]);
    try {
      await shard0().raw('SELECT 1');
      await env.resources.pg.raw('SELECT 1');
      for (const store of ['mysql', 'postgres'] as const) {
        const err = await rejection(ownOnly.storm(store, 300));
        expect(err).toBeInstanceOf(FaultNotInjectedError);
        expect(err).toMatchObject({ fault: `${store}-connections-killed`, observed: { killed: expect.any(Number), ofRoles: 0 } });
        expect((err as FaultNotInjectedError).observed.killed).toBeGreaterThan(0);
      }
    } finally {
      await ownOnly.close();
    }
  });

  it("counts a storm that kills a real role process's connections (a relay polls both stores)", async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'tidemark-preconditions-'));
    let relay: RoleProcess | undefined;
    const killer = connectionKiller(env.settings, () => (relay ? [relay.pid] : []));
    try {
      relay = await startRoleProcess({ name: 'relay-storm', roles: ['relay'], env: roleProcessEnv(env.settings), logDir });
      for (const store of ['mysql', 'postgres'] as const) {
        // Long enough for the relay's next polls to open new connections after the first kills.
        const killed = await killer.storm(store, 5000);
        expect({ store, ofRoles: killed.ofRoles > 0, within: killed.ofRoles <= killed.killed }).toEqual({
          store,
          ofRoles: true,
          within: true,
        });
      }
    } finally {
      await killer.close();
      await relay?.kill();
      rmSync(logDir, { recursive: true, force: true });
    }
  }, 180000);
});
