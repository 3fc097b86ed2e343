// One fault run, as a jest suite sets it up: the private engines and databases, the Tidemark role
// processes, the steady workload, the freshness probe and the product's reconciliation, started in
// beforeAll; the closing report written and everything torn down in afterAll. `cycle()` runs one fault
// cycle with the run's context. Used by the fault suite and the broker-loss suite.
import type { Settings } from '../../../src/config/settings';
import { authHeader } from '../../support/tokens';
import { Cluster } from './cluster';
import { createFaultEnv, type FaultEnv } from './faultEnv';
import { runCycle, type Expect, type Injected } from './faultCycle';
import { FreshnessProbe } from './freshnessProbe';
import { notYetVisible } from './oracle';
import type { PrivateEngineOptions } from './privateEngines';
import { productReconciliation } from './productReconciliation';
import type { FaultProfile } from './profile';
import { printReport, writeReport, type FaultRecord, type SuiteReport } from './report';
import type { RoleName } from './roleProcesses';
import type { ProductReconciliation } from './verify';
import { Workload } from './workload';

export interface FaultRunOptions {
  suite: string;
  profile: FaultProfile;
  processes: [name: string, roles: RoleName[]][];
  settings?: Partial<Settings>;
  engines?: PrivateEngineOptions;
}

export class FaultRun {
  env!: FaultEnv;
  cluster!: Cluster;
  workload!: Workload;
  probe!: FreshnessProbe;
  reconciliation!: ProductReconciliation;
  readonly records: FaultRecord[] = [];
  readonly detectId = 700000 + Math.floor(Math.random() * 99999);
  readonly started = Date.now();

  constructor(private readonly o: FaultRunOptions) {}

  cycle(name: string, inject: () => Promise<Injected>, expectations: Expect = {}): Promise<void> {
    const ctx = {
      resources: this.env.resources,
      workload: this.workload,
      probe: this.probe,
      reconciliation: this.reconciliation,
      profile: this.o.profile,
      records: this.records,
      gatewayOpsUrl: this.cluster.gateway.opsUrl,
    };
    return runCycle(ctx, name, inject, expectations);
  }

  /** Acknowledged writes whose aggregate ClickHouse shows at (at least) the acknowledged version. */
  async foundAcknowledged(): Promise<number> {
    const acknowledged = this.workload.acknowledged;
    return acknowledged.length - (await notYetVisible(this.env.resources, acknowledged));
  }

  async setUp(): Promise<void> {
    const log = (l: string) => process.env.FAULTS_VERBOSE && process.stderr.write(`[${this.o.suite}] ${l}\n`);
    this.env = await createFaultEnv(log, this.o.settings, this.o.engines);
    this.cluster = new Cluster(this.env);
    await Promise.all(this.o.processes.map(([name, roles]) => this.cluster.start(name, roles)));
    const url = this.cluster.gateway.url!;
    const { profile } = this.o;
    this.workload = new Workload({
      url,
      headers: await authHeader(this.env.settings, 'service'),
      runId: this.env.runId,
      detectId: this.detectId,
      workers: profile.workers,
      ratePerSecond: profile.ratePerSecond,
      orderShare: profile.orderShare,
      requestTimeoutMs: 15000,
    });
    this.probe = new FreshnessProbe({
      url,
      // Reads rows (fitnessResults, orders): an operator's view of every row, which analysts never get.
      headers: await authHeader(this.env.settings, 'operator'),
      detectId: this.detectId,
      everyMs: 400,
      timeoutMs: 15000,
    });
    const operator = await authHeader(this.env.settings, 'operator');
    this.reconciliation = productReconciliation({ url, headers: operator, detectId: this.detectId, from: new Date(this.started - 60000) });
    this.workload.start();
    this.probe.start();
  }

  async tearDown(): Promise<void> {
    await this.workload?.pause(20000).catch(() => undefined);
    await this.probe?.stop();
    if (this.env) {
      const found = await this.foundAcknowledged().catch(() => -1);
      const report: SuiteReport = {
        suite: this.o.suite,
        profile: this.o.profile.name,
        startedAt: new Date(this.started).toISOString(),
        durationMs: Date.now() - this.started,
        faultsInjected: this.records.filter((x) => x.fault !== 'baseline').length,
        writesAcknowledged: this.workload?.acknowledged.length ?? 0,
        committedAfterUnknownOutcome: this.workload?.committedUnacknowledged ?? 0,
        writesFound: found,
        discrepanciesAfterRecovery: this.records.reduce((n, x) => n + x.verdict.differences + x.verdict.productDiscrepancies, 0),
        faults: this.records,
        anomalies: this.workload?.anomalies ?? [],
      };
      const file = writeReport(report);
      process.stdout.write(`\n${printReport(report)}\n(report: ${file}; logs: ${this.cluster?.logs})\n`);
    }
    await this.cluster?.stopAll();
    await this.env?.cleanup();
  }
}

/** Registers the run's beforeAll / afterAll; call inside a describe block. */
export function useFaultRun(o: FaultRunOptions): FaultRun {
  const run = new FaultRun(o);
  beforeAll(() => run.setUp(), 300000);
  afterAll(() => run.tearDown(), 120000);
  return run;
}
