// Proof under fire: a steady mix of fitness records, corrections, deletions and orders flows through
// the GraphQL gateway while real engines and real processes fail, one fault at a time: the suite's own
// Kafka broker and ClickHouse server are stopped and started, relay and projector processes are
// SIGKILLed mid-batch, the reconciler is SIGKILLed mid-rebuild, MySQL and PostgreSQL connections are
// killed during writes, relays and projectors are scaled out and in, and poison is fed to the topics.
// After each fault the suite waits for recovery and demands: every acknowledged write in ClickHouse
// with its latest version and content (own oracle and the product's reconciliation: zero
// discrepancies), nothing lost, nothing parked, clear errors and no hangs while a store was down,
// CATCHING_UP or STALE during the outage and FRESH after. The profile (support/profile.ts) decides how hard: `npm test` runs the reduced one,
// `npm run test:faults` the full one. Figures: .tidemark/faults/report-<profile>.json.
import { killProjectorBetweenInsertAndCommit, killRelayMidBatch } from './support/faultActions';
import {
  completed,
  seedCustomer,
  seedStudent,
  startCustomerErasure,
  startErasure,
  tracesLeft,
  type ErasureAnswer,
} from './support/erasureFaults';
import { killRebuildMidway, rebuildById, rebuildLeftovers, seedQuietCampaign, type RebuildKilled } from './support/rebuildFaults';
import { RebuildProjectionDocument } from '../generated/graphql';
import { call } from '../support/timedClient';
import type { RebuildRecord } from '../../src/reconciliation/ledger/records';
import { useFaultRun } from './support/faultRun';
import { metricValues, readyz } from './support/opsProbe';
import { compareStores, readFitnessProjection } from './support/oracle';
import { discardPoison, readDeadLetters, sendPoison } from './support/poison';
import { authHeader } from '../support/tokens';
import { selectedProfile } from './support/profile';
import { connectionKiller, type ConnectionKiller } from './support/storeFaults';
import { timeToVisible } from './support/verify';
import { sleep, waitFor } from '../../src/shared/lifecycle';
import { projectorGroupId } from '../../src/projections/projectorGroup';
import { AssignerProtocol } from 'kafkajs';

const profile = selectedProfile();
jest.setTimeout(profile.cycleTimeoutMs);

describe(`fault suite (${profile.name} profile)`, () => {
  const run = useFaultRun({
    suite: 'faults',
    profile,
    processes: [
      ['gateway', ['gateway']],
      ['relay-1', ['relay']],
      ['projector-1', ['projector']],
      // The reconciler also serves operators' GraphQL, so the rebuild cycle's rebuildProjection runs in
      // it: that cycle's SIGKILL takes down the rebuild and the scheduled reconciler together (the
      // issue's "kill of the reconciler during a rebuild"), while the workload's gateway keeps serving.
      ['reconciler', ['reconciler', 'gateway']],
    ],
    // A killed rebuild is taken for dead after 10 s (the minimum), so it heals within the cycle.
    settings: { rebuildStaleAfterMs: 10000 },
  });
  let killer: ConnectionKiller;
  beforeAll(() => {
    // Only the role processes' connections make a storm count (the suite's own pools die too).
    killer = connectionKiller(run.env.settings, () => [...run.cluster.processes.values()].map((p) => p.pid));
  });
  afterAll(async () => {
    await killer?.close();
  });
  const cycle = run.cycle.bind(run);

  /**
   * Latency bounds of the outage cycles. Orders after a hung broker's circuit opened: 100 ms in the full
   * profile; in the reduced one, which runs inside `npm test` beside another jest worker on the same two
   * cores, 100 ms or twice the same figure under steady traffic in this run (the baseline), whichever is
   * larger, since scheduling alone moves such figures there.
   *
   * The gateway's event loop while Kafka comes back is held against the same gateway's figure under
   * steady traffic watched right before the outage (faultCycle.ts, profile.lagBaselineMs). A fixed 100 ms
   * alone was a statement about the machine: the steady p99 was 270-729 ms in recorded runs (watched right
   * after start, warm-up included); watched right before the outage it is the same warm gateway under the
   * same load (docs/faults.md). What the defect looked like was the gateway itself stalling while it caught up; so:
   * full profile, at most 1.5 times the steady figure (never below 100 ms); reduced profile (a busier
   * machine, shorter windows), 1 s or four times it, whichever is larger.
   */
  function boundMs(baselineMs: number): number {
    return profile.name === 'full' ? 100 : Math.max(100, 2 * baselineMs);
  }
  function lagBoundMs(steadyMs: number): number {
    return profile.name === 'full' ? Math.max(100, 1.5 * steadyMs) : Math.max(1000, 4 * steadyMs);
  }
  let baselineEndedAt = 0;
  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)] ?? 0;
  const baselineOrderP99Ms = () =>
    p99(run.workload.orderTimings.filter((t) => t.startedAt < baselineEndedAt && t.outcome === 'PUBLISHED_DIRECT').map((t) => t.ms));

  /**
   * While Kafka is out: the gateway stays ready (degraded, naming Kafka) because it can still write and
   * read; the relay and the projector, which cannot do their jobs, are not ready; every process answers
   * its operations endpoints. Orders meanwhile go to the fallback table at once (the circuit is open).
   */
  async function duringKafkaOutage(): Promise<Record<string, unknown>> {
    const [gateway, relay, projector] = await Promise.all(
      ['gateway', 'relay-1', 'projector-1'].map((n) => readyz(run.cluster.processes.get(n)!.opsUrl)),
    );
    expect({ status: gateway!.status, degraded: gateway!.body.degraded }).toEqual({ status: 200, degraded: ['kafka'] });
    expect({ status: relay!.status, failing: relay!.body.failing }).toEqual({ status: 503, failing: ['kafka'] });
    expect({ status: projector!.status, failing: projector!.body.failing }).toEqual({ status: 503, failing: ['kafka'] });
    for (const n of ['relay-1', 'projector-1']) expect((await fetch(`${run.cluster.processes.get(n)!.opsUrl}/healthz`)).status).toBe(200);
    // The relay stopped claiming: its circuit is open, like the gateway's.
    expect((await metricValues(run.cluster.processes.get('relay-1')!.opsUrl, 'kafka_circuit_open')).map((m) => m.value)).toEqual([1]);
    const circuit = await metricValues(run.cluster.gateway.opsUrl, 'kafka_circuit_open');
    expect(circuit.map((m) => m.value)).toEqual([1]);
    return { readyzDuringOutage: { gateway: gateway!.body, relay: relay!.body.status, projector: projector!.body.status } };
  }

  /**
   * While ClickHouse is out: the gateway stays ready (degraded, naming ClickHouse) because writes do not
   * need it, every write of the outage so far is acknowledged, and readers of rows get the typed,
   * retriable READ_MODEL_UNAVAILABLE (issue 30: a load balancer must keep routing writes to it).
   */
  async function duringClickHouseOutage(phase: string): Promise<Record<string, unknown>> {
    const gateway = await readyz(run.cluster.gateway.opsUrl);
    expect({ status: gateway.status, state: gateway.body.status, degraded: gateway.body.degraded }).toEqual({
      status: 200,
      state: 'degraded',
      degraded: ['clickhouse'],
    });
    const writes = run.workload.phaseStats(phase);
    expect({ errors: writes.errors, acknowledged: writes.acknowledged > 0 }).toEqual({ errors: {}, acknowledged: true });
    // The fitness page reads rows: the typed error. The order probe asks only for the freshness marker,
    // which needs no rows: STALE (the projector's checkpoints cannot be read), never FRESH.
    const reads = await run.probe.once();
    expect(reads.map((r) => r.status)).toEqual(['ERROR:READ_MODEL_UNAVAILABLE', 'STALE']);
    return { readyzDuringOutage: gateway.body, writesDuringOutage: writes.acknowledged };
  }

  it('keeps the stores and ClickHouse identical under steady traffic (baseline)', async () => {
    await waitFor(() => run.workload.acknowledged.length >= 30 && Date.now() - run.started >= profile.steadyMs, {
      timeoutMs: 60000,
      what: 'baseline traffic',
    });
    // The baseline's "recovery" is steady traffic: its event-loop figure is reported beside the outages'.
    await cycle('baseline', async () => ({ hold: false, restore: async () => sleep(10000) }), { watchGatewayLag: true });
    baselineEndedAt = Date.now();
    run.records[run.records.length - 1]!.evidence.placeOrderP99Ms = baselineOrderP99Ms();
  });

  // Odd repeats stop the engine gracefully (SIGTERM), even ones kill it (SIGKILL); ClickHouse the other way round.
  const stopMode = (engine: 'kafka' | 'clickhouse', i: number) => ((i % 2 === 1) === (engine === 'kafka') ? 'graceful' : 'kill');
  // A Kafka outage with the production attempt limits and backoff: nothing may be PARKED or
  // DEAD_LETTER afterwards, and no operator call is made; everything heals by itself.
  for (let i = 1; i <= profile.repeats; i++) {
    const mode = stopMode('kafka', i);
    it(`recovers when the Kafka broker stops (${mode}) and starts again (#${i})`, () =>
      cycle(
        `kafka-stopped-${mode}#${i}`,
        async () => {
          await run.env.engines.stop('kafka', mode);
          return { hold: true, holdMs: profile.kafkaOutageMs, whileHeld: duringKafkaOutage, restore: () => run.env.engines.start('kafka') };
        },
        { notFreshDuring: ['fitness', 'orders'], gatewayLagBound: lagBoundMs, recoveredWithinMs: 60000 },
      ));
  }

  it('stays bounded when the broker hangs (TCP accepted, no answers): the circuit opens and orders stop waiting', async () => {
    const name = 'kafka-hung';
    let openedAt = 0;
    let hungAt = 0;
    let restoredAt = 0;
    await cycle(
      name,
      async () => {
        run.env.engines.freeze('kafka');
        hungAt = Date.now();
        await waitFor(async () => (await metricValues(run.cluster.gateway.opsUrl, 'kafka_circuit_open'))[0]?.value === 1, {
          timeoutMs: 60000,
          intervalMs: 100,
          what: "the gateway's circuit to open",
        });
        openedAt = Date.now();
        return {
          hold: true,
          holdMs: Math.max(15000, profile.kafkaOutageMs / 2),
          restore: async () => {
            restoredAt = Date.now();
            run.env.engines.thaw('kafka');
          },
        };
      },
      { notFreshDuring: ['fitness', 'orders'] },
    );
    const s = run.env.settings;
    const during = run.workload.orderTimings.filter((t) => t.startedAt >= hungAt && t.startedAt < restoredAt);
    const beforeOpen = during.filter((t) => t.startedAt < openedAt);
    // Give the circuit a moment to be seen by requests already on their way when it opened.
    const afterOpen = during.filter((t) => t.startedAt >= openedAt + 200);
    const bound = boundMs(baselineOrderP99Ms());
    const figures = {
      boundMs: bound,
      ordersWhileHung: during.length,
      beforeOpen: { n: beforeOpen.length, maxMs: Math.max(0, ...beforeOpen.map((t) => t.ms)) },
      afterOpen: {
        n: afterOpen.length,
        p50Ms: [...afterOpen.map((t) => t.ms)].sort((a, b) => a - b)[Math.floor(afterOpen.length / 2)],
        p99Ms: p99(afterOpen.map((t) => t.ms)),
      },
      circuitOpenedAfterMs: openedAt - hungAt,
    };
    run.records[run.records.length - 1]!.evidence.placeOrderWhileHung = figures;
    // The first orders wait at most the direct deadline plus the fallback write's own timeout...
    expect(figures.beforeOpen.maxMs).toBeLessThanOrEqual(s.kafkaFirstDeadlineMs + s.kafkaFirstFallbackTimeoutMs);
    // ...and once the circuit is open, none waits for the hung broker any more.
    expect(afterOpen.length).toBeGreaterThanOrEqual(20);
    expect(afterOpen.every((t) => t.outcome === 'FALLBACK_STORED')).toBe(true);
    expect(figures.afterOpen.p99Ms).toBeLessThan(bound);
  });

  it('recovers when a relay is SIGKILLed with a claimed batch in flight', () =>
    cycle(
      'relay-sigkill-mid-batch',
      async () => {
        const killed = await killRelayMidBatch(run.env.resources, run.cluster, 'relay-1');
        return {
          hold: false,
          restore: async () => void (await run.cluster.start('relay-1', ['relay'])),
          evidence: async () => ({ ...killed }),
        };
      },
      { notFreshDuring: ['fitness'] },
    ));

  it('recovers when a projector is SIGKILLed between its ClickHouse insert and its offset commit', () =>
    cycle(
      'projector-sigkill-before-commit',
      async () => {
        const backlog = async () => {
          const n = run.workload.acknowledged.length;
          await waitFor(() => run.workload.acknowledged.length >= n + 40, { timeoutMs: 30000, what: 'a Kafka backlog' });
        };
        const killed = await killProjectorBetweenInsertAndCommit(run.env.resources, run.cluster, 'projector-1', backlog);
        return {
          hold: false,
          restore: async () => void (await run.cluster.start('projector-1', ['projector'])),
          evidence: async () => {
            const c = await compareStores(run.env.resources);
            return { ...killed, physicalRows: c.physicalRows, logicalRows: c.fitnessRows + c.orderRows };
          },
        };
      },
      { notFreshDuring: ['fitness', 'orders'] },
    ));

  it('ends a rebuild whose process is SIGKILLed mid-rebuild by itself: rolled back or VERIFIED, nothing half-swapped', async () => {
    const r = run.env.resources;
    const quiet = run.detectId + 100000;
    await seedQuietCampaign(r, quiet);
    const operator = await authHeader(run.env.settings, 'operator');
    const rebuild = () =>
      void call(
        run.cluster.processes.get('reconciler')!.url!,
        RebuildProjectionDocument,
        { domain: 'fitness', scope: { campaign: { detectId: quiet } }, reason: 'fault suite: killed mid-rebuild' },
        operator,
        60000,
      ).catch(() => undefined);
    let killed: RebuildKilled | undefined;
    let ended: RebuildRecord | undefined;
    await cycle('rebuild-sigkill', async () => {
      killed = await killRebuildMidway(r, run.cluster, 'reconciler', rebuild);
      return {
        hold: false,
        // The restarted reconciler finds the heartbeat stale on one of its ticks and finishes the rebuild.
        restore: async () => {
          await run.cluster.start('reconciler', ['reconciler', 'gateway']);
          ended = await waitFor(
            async () => {
              const now = await rebuildById(r, killed!.rebuildId);
              return now.status === 'RUNNING' ? undefined : now;
            },
            { timeoutMs: 120000, intervalMs: 500, what: 'the killed rebuild to be rolled back or resumed' },
          );
        },
        evidence: async () => ({ ...killed, endedAs: ended?.status, errorCode: ended?.errorCode, leftovers: await rebuildLeftovers(r) }),
      };
    });
    // Killed after its swap it can only be resumed (readers are on the rebuilt table); before, rolled back.
    expect({ afterSwap: killed!.afterSwap, status: ended!.status, errorCode: ended!.errorCode }).toEqual(
      killed!.afterSwap
        ? { afterSwap: true, status: 'VERIFIED', errorCode: null }
        : { afterSwap: false, status: 'FAILED', errorCode: 'ABANDONED' },
    );
    expect(await rebuildLeftovers(r)).toEqual([]);
  });

  (profile.erasureCycle ? it : it.skip)(
    'completes erasures (a student, a customer) while the relay, the projector and their reconciler are SIGKILLed',
    async () => {
      const r = run.env.resources;
      const reconciler = () => run.cluster.processes.get('reconciler')!.url!;
      const [client, operator] = [await authHeader(run.env.settings, 'service'), await authHeader(run.env.settings, 'operator')];
      const student = 880000 + (run.detectId % 100000);
      const traces = await seedStudent(run.cluster.gateway.url!, client, run.detectId + 200000, student);
      const customer = await seedCustomer(run.cluster.gateway.url!, client, `fault-erased-${run.detectId}`);
      await waitFor(async () => (await tracesLeft(r, traces)).some((h) => h.startsWith('fitness_results')), {
        timeoutMs: 60000,
        what: 'the student projected',
      });
      let [erasureId, customerErasureId] = ['', ''];
      let done: ErasureAnswer | undefined;
      let customerDone: ErasureAnswer | undefined;
      let startedAt = 0;
      await cycle(
        'erasure-sigkill',
        async () => {
          startedAt = Date.now();
          customerErasureId = await startCustomerErasure(reconciler(), operator, customer.customerId);
          erasureId = await startErasure(reconciler(), operator, student);
          await Promise.all(['relay-1', 'projector-1', 'reconciler'].map((p) => run.cluster.kill(p)));
          return {
            hold: true,
            holdMs: 5000,
            restore: async () => {
              await run.cluster.start('relay-1', ['relay']);
              await run.cluster.start('projector-1', ['projector']);
              await run.cluster.start('reconciler', ['reconciler', 'gateway']);
              done = await completed(reconciler(), operator, erasureId);
              customerDone = await completed(reconciler(), operator, customerErasureId);
            },
            evidence: async () => ({ erasureId, completedInMs: Date.now() - startedAt, failedPasses: done?.failedAttempts }),
          };
        },
        { notFreshDuring: ['fitness'] },
      );
      expect(done!.certificate!.map((c) => [c.store, c.found]).sort()).toEqual([
        ['clickhouse', 0],
        ['kafka', 0],
        ['mysql', 0],
        ['reconciliation-ledger', 0],
      ]);
      expect(await tracesLeft(r, traces)).toEqual([]);
      expect(customerDone!.certificate!.map((c) => [c.store, c.found]).sort()).toEqual([
        ['clickhouse', 0],
        ['kafka', 0],
        ['postgres', 0],
        ['reconciliation-ledger', 0],
      ]);
      expect(await tracesLeft(r, customer)).toEqual([]);
    },
  );

  for (let i = 1; i <= profile.repeats; i++) {
    const mode = stopMode('clickhouse', i);
    it(`recovers when ClickHouse stops (${mode}) and starts again (#${i})`, () =>
      cycle(
        `clickhouse-stopped-${mode}#${i}`,
        async () => {
          await run.env.engines.stop('clickhouse', mode);
          const whileHeld = () => duringClickHouseOutage(`clickhouse-stopped-${mode}#${i}`);
          return {
            hold: true,
            holdMs: profile.clickhouseOutageMs,
            whileHeld,
            restore: () => run.env.engines.start('clickhouse'),
          };
        },
        { notFreshDuring: ['fitness', 'orders'] },
      ));
  }

  it('recovers when MySQL connections are killed during writes', () =>
    cycle('mysql-connections-killed', async () => {
      const killed = await killer.storm('mysql', profile.stormMs);
      return { hold: false, restore: async () => undefined, evidence: async () => ({ connectionsKilled: killed }) };
    }));

  it('recovers when PostgreSQL connections are killed during writes', () =>
    cycle('postgres-connections-killed', async () => {
      const killed = await killer.storm('postgres', profile.stormMs);
      return { hold: false, restore: async () => undefined, evidence: async () => ({ connectionsKilled: killed }) };
    }));

  it('runs two relays and two projectors, then loses one of each', () =>
    cycle('scale-out-then-in', async () => {
      await Promise.all([run.cluster.start('relay-2', ['relay']), run.cluster.start('projector-2', ['projector'])]);
      const claimed = async (n: string) =>
        (await metricValues(run.cluster.processes.get(n)!.opsUrl, 'outbox_claimed_total')).reduce((a, m) => a + m.value, 0);
      const relay1Before = await claimed('relay-1');
      const members = await waitFor(
        async () => {
          const m = await projectorMembers();
          return m.length === 2 && m.every((x) => x > 0) ? m : undefined;
        },
        { timeoutMs: 60000, what: 'two projector group members with partitions each' },
      );
      return {
        hold: true,
        // Asserted, not only recorded: while scaled out both relays claim and both members hold partitions.
        whileHeld: async () => {
          const relays = await waitFor(
            async () => {
              const c = { 'relay-1': (await claimed('relay-1')) - relay1Before, 'relay-2': await claimed('relay-2') };
              return c['relay-1'] > 0 && c['relay-2'] > 0 ? c : undefined;
            },
            { timeoutMs: 60000, intervalMs: 500, what: 'both relays to claim outbox rows' },
          );
          const partitions = await projectorMembers();
          expect({ members: partitions.length, eachHolds: partitions.every((x) => x > 0) }).toEqual({ members: 2, eachHolds: true });
          return { claimedWhileScaledOut: relays, partitionsPerMemberWhileScaledOut: partitions };
        },
        restore: async () => {
          await Promise.all([run.cluster.remove('relay-1'), run.cluster.remove('projector-1')]);
        },
        evidence: async () => ({
          projectorMembersWhileScaledOut: members.length,
          relaysAfter: run.cluster.of('relay').length,
          projectorsAfter: run.cluster.of('projector').length,
        }),
      };
    }));

  /** Partitions per current member of the projector group (none while it rebalances). */
  async function projectorMembers(): Promise<number[]> {
    const admin = run.env.resources.kafka.admin();
    await admin.connect();
    try {
      const [g] = (await admin.describeGroups([projectorGroupId(run.env.settings)])).groups;
      return (g?.members ?? []).map((m) => {
        const a = m.memberAssignment?.length ? AssignerProtocol.MemberAssignment.decode(m.memberAssignment) : null;
        return Object.values(a?.assignment ?? {}).reduce((n, ps) => n + ps.length, 0);
      });
    } finally {
      await admin.disconnect();
    }
  }

  it('dead-letters poison (malformed bytes, an unknown schemaVersion) without blocking a partition', async () => {
    let poison: Awaited<ReturnType<typeof sendPoison>> | undefined;
    let judged: Awaited<ReturnType<typeof discardPoison>> | undefined;
    await cycle('poison', async () => {
      poison = await sendPoison(run.env.resources.kafka, run.env.resources.topics, run.detectId);
      return {
        hold: false,
        // Poison is an operator's to judge: DEAD dead letters keep the domain STALE until discarded.
        restore: async () => {
          const operator = await authHeader(run.env.settings, 'operator');
          judged = await discardPoison(run.cluster.gateway.url!, operator, 3, run.detectId);
        },
        evidence: async () => ({ whileDead: judged }),
      };
    });
    expect(judged).toEqual({ status: 'STALE', reason: 'PROJECTOR_DEAD_LETTERED', discarded: 3 });
    const dead = await readDeadLetters(run.env.resources.kafka, run.env.resources.topics.deadLetter, 3);
    expect(dead.map((d) => d.reason).sort()).toEqual(['MALFORMED_JSON', 'MALFORMED_JSON', 'UNSUPPORTED_SCHEMA_VERSION']);
    expect((await readFitnessProjection(run.env.resources)).has(String(poison!.foreignDataId))).toBe(false);
    run.records[run.records.length - 1]!.evidence.deadLetters = dead.map((d) => ({ reason: d.reason, sourceTopic: d.sourceTopic }));
  });

  it('ends with every acknowledged write found in ClickHouse', async () => {
    await run.workload.pause();
    await timeToVisible(run.env.resources, [...run.workload.acknowledged], Date.now(), profile.recoveryTimeoutMs);
    const found = await run.foundAcknowledged();
    expect(found).toBe(run.workload.acknowledged.length);
    expect(run.workload.acknowledged.length).toBeGreaterThan(0);
  });
});
