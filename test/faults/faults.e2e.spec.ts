// Proof under fire: a steady mix of fitness records, corrections, deletions and orders flows through
// the GraphQL gateway while real engines and real processes fail, one fault at a time: the suite's own
// Kafka broker and ClickHouse server are stopped and started, relay and projector processes are
// SIGKILLed mid-batch, MySQL and PostgreSQL connections are killed during writes, relays and
// projectors are scaled out and in, and poison is fed to the topics. After each fault the suite waits
// for recovery and demands: every acknowledged write in ClickHouse with its latest version and
// content (own oracle and the product's reconciliation: zero discrepancies), nothing lost, nothing
// parked, clear errors and no hangs while a store was down, CATCHING_UP or STALE during the outage
// and FRESH after. The profile (support/profile.ts) decides how hard: `npm test` runs the reduced one,
// `npm run test:faults` the full one. Figures: .tidemark/faults/report-<profile>.json.
import { authHeader } from '../support/tokens';
import { Cluster } from './support/cluster';
import { createFaultEnv, type FaultEnv } from './support/faultEnv';
import { killProjectorBetweenInsertAndCommit, killRelayMidBatch } from './support/faultActions';
import { FreshnessProbe } from './support/freshnessProbe';
import { compareStores, readFitnessProjection, readOrdersProjection } from './support/oracle';
import { readDeadLetters, sendPoison } from './support/poison';
import { productReconciliation } from './support/productReconciliation';
import { selectedProfile } from './support/profile';
import { printReport, writeReport, type FaultRecord, type SuiteReport } from './support/report';
import { connectionKiller, type ConnectionKiller } from './support/storeFaults';
import { timeToVisible, type ProductReconciliation } from './support/verify';
import { runCycle, type Expect, type Injected } from './support/faultCycle';
import { Workload } from './support/workload';
import { waitFor } from '../../src/shared/lifecycle';
import { projectorGroupId } from '../../src/projections/projectorRole';

const profile = selectedProfile();
jest.setTimeout(profile.cycleTimeoutMs);

describe(`fault suite (${profile.name} profile)`, () => {
  let env: FaultEnv;
  let cluster: Cluster;
  let workload: Workload;
  let probe: FreshnessProbe;
  let killer: ConnectionKiller;
  let reconciliation: ProductReconciliation;
  const records: FaultRecord[] = [];
  const started = Date.now();
  const detectId = 700000 + Math.floor(Math.random() * 99999);
  const log = (l: string) => process.env.FAULTS_VERBOSE && process.stderr.write(`[faults] ${l}\n`);

  beforeAll(async () => {
    env = await createFaultEnv(log);
    cluster = new Cluster(env);
    await Promise.all([cluster.start('gateway', ['gateway']), cluster.start('relay-1', ['relay']), cluster.start('projector-1', ['projector']), cluster.start('reconciler', ['reconciler'])]);
    const url = cluster.gateway.url!;
    workload = new Workload({ url, headers: await authHeader(env.settings, 'client'), runId: env.runId, detectId, workers: profile.workers, ratePerSecond: profile.ratePerSecond, requestTimeoutMs: 15000 });
    probe = new FreshnessProbe({ url, headers: await authHeader(env.settings, 'analyst'), detectId, everyMs: 400, timeoutMs: 15000 });
    killer = connectionKiller(env.settings);
    reconciliation = productReconciliation({ url, headers: await authHeader(env.settings, 'operator'), detectId, from: new Date(started - 60000) });
    workload.start();
    probe.start();
  }, 240000);

  afterAll(async () => {
    await workload?.pause(20000).catch(() => undefined);
    await probe?.stop();
    if (env) {
      const found = await foundAcknowledged().catch(() => -1);
      const report: SuiteReport = {
        profile: profile.name,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        faultsInjected: records.filter((r) => r.fault !== 'baseline').length,
        writesAcknowledged: workload?.acknowledged.length ?? 0,
        committedAfterUnknownOutcome: workload?.committedUnacknowledged ?? 0,
        writesFound: found,
        discrepanciesAfterRecovery: records.reduce((n, r) => n + r.verdict.differences + r.verdict.productDiscrepancies, 0),
        faults: records,
        anomalies: workload?.anomalies ?? [],
      };
      const file = writeReport(report);
      process.stdout.write(`\n${printReport(report)}\n(report: ${file}; logs: ${cluster?.logs})\n`);
    }
    await killer?.close();
    await cluster?.stopAll();
    await env?.cleanup();
  }, 120000);

  /** Acknowledged writes whose aggregate ClickHouse shows at (at least) the acknowledged version. */
  async function foundAcknowledged(): Promise<number> {
    const [f, o] = await Promise.all([readFitnessProjection(env.resources), readOrdersProjection(env.resources)]);
    return workload.acknowledged.filter((a) => (a.domain === 'fitness' ? (f.get(a.id)?.version ?? 0) >= a.version : o.has(a.id))).length;
  }

  const cycle = (name: string, inject: () => Promise<Injected>, expectations: Expect = {}) =>
    runCycle({ resources: env.resources, workload, probe, reconciliation, profile, records }, name, inject, expectations);

  it('keeps the stores and ClickHouse identical under steady traffic (baseline)', async () => {
    await waitFor(() => workload.acknowledged.length >= 30 && Date.now() - started >= profile.steadyMs, { timeoutMs: 60000, what: 'baseline traffic' });
    await cycle('baseline', async () => ({ hold: false, restore: async () => undefined }));
  });

  // Odd repeats stop the engine gracefully (SIGTERM), even ones kill it (SIGKILL); ClickHouse the other way round.
  const stopMode = (engine: 'kafka' | 'clickhouse', i: number) => ((i % 2 === 1) === (engine === 'kafka') ? 'graceful' : 'kill');
  for (let i = 1; i <= profile.repeats; i++) {
    const mode = stopMode('kafka', i);
    it(`recovers when the Kafka broker stops (${mode}) and starts again (#${i})`, () =>
      cycle(`kafka-stopped-${mode}#${i}`, async () => {
        await env.engines.stop('kafka', mode);
        return { hold: true, restore: () => env.engines.start('kafka') };
      }, { notFreshDuring: ['fitness', 'orders'] }));
  }

  it('recovers when a relay is SIGKILLed with a claimed batch in flight', () =>
    cycle('relay-sigkill-mid-batch', async () => {
      const killed = await killRelayMidBatch(env.resources, cluster, 'relay-1');
      return {
        hold: false,
        restore: async () => void (await cluster.start('relay-1', ['relay'])),
        evidence: async () => ({ ...killed }),
      };
    }, { notFreshDuring: ['fitness'] }));

  it('recovers when a projector is SIGKILLed between its ClickHouse insert and its offset commit', () =>
    cycle('projector-sigkill-before-commit', async () => {
      const backlog = async () => {
        const n = workload.acknowledged.length;
        await waitFor(() => workload.acknowledged.length >= n + 40, { timeoutMs: 30000, what: 'a Kafka backlog' });
      };
      const killed = await killProjectorBetweenInsertAndCommit(env.resources, cluster, 'projector-1', backlog);
      return {
        hold: false,
        restore: async () => void (await cluster.start('projector-1', ['projector'])),
        evidence: async () => {
          const c = await compareStores(env.resources);
          return { ...killed, physicalRows: c.physicalRows, logicalRows: c.fitnessRows + c.orderRows };
        },
      };
    }, { notFreshDuring: ['fitness', 'orders'] }));

  for (let i = 1; i <= profile.repeats; i++) {
    const mode = stopMode('clickhouse', i);
    it(`recovers when ClickHouse stops (${mode}) and starts again (#${i})`, () =>
      cycle(`clickhouse-stopped-${mode}#${i}`, async () => {
        await env.engines.stop('clickhouse', mode);
        return { hold: true, restore: () => env.engines.start('clickhouse') };
      }, { notFreshDuring: ['fitness', 'orders'] }));
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
      await Promise.all([cluster.start('relay-2', ['relay']), cluster.start('projector-2', ['projector'])]);
      const admin = env.resources.kafka.admin();
      await admin.connect();
      const members = await waitFor(
        async () => {
          const g = await admin.describeGroups([projectorGroupId(env.settings)]);
          return g.groups[0]!.members.length === 2 ? 2 : undefined;
        },
        { timeoutMs: 60000, what: 'two projector group members' },
      ).finally(() => admin.disconnect());
      return {
        hold: true,
        restore: async () => {
          await Promise.all([cluster.remove('relay-1'), cluster.remove('projector-1')]);
        },
        evidence: async () => ({ projectorMembersWhileScaledOut: members, relaysAfter: cluster.of('relay').length, projectorsAfter: cluster.of('projector').length }),
      };
    }));

  it('dead-letters poison (malformed bytes, an unknown schemaVersion) without blocking a partition', async () => {
    let poison: Awaited<ReturnType<typeof sendPoison>> | undefined;
    await cycle('poison', async () => {
      poison = await sendPoison(env.resources.kafka, env.resources.topics, detectId);
      return { hold: false, restore: async () => undefined };
    });
    const dead = await readDeadLetters(env.resources.kafka, env.resources.topics.deadLetter, 3);
    expect(dead.map((d) => d.reason).sort()).toEqual(['MALFORMED_JSON', 'MALFORMED_JSON', 'UNSUPPORTED_SCHEMA_VERSION']);
    expect((await readFitnessProjection(env.resources)).has(String(poison!.foreignDataId))).toBe(false);
    records[records.length - 1]!.evidence.deadLetters = dead.map((d) => ({ reason: d.reason, sourceTopic: d.sourceTopic }));
  });

  it('ends with every acknowledged write found in ClickHouse', async () => {
    await workload.pause();
    await timeToVisible(env.resources, [...workload.acknowledged], Date.now(), profile.recoveryTimeoutMs);
    const found = await foundAcknowledged();
    expect(found).toBe(workload.acknowledged.length);
    expect(workload.acknowledged.length).toBeGreaterThan(0);
  });
});
