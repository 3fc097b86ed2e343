// One fault cycle: inject the fault under traffic, hold it (outages) or end it at once (kills, storms),
// restore, time the recovery, pause traffic, verify convergence (verify.ts), record the figures and
// assert everything the suite demands. Traffic resumes before the assertions, so a failed cycle does
// not stop the next one from running under load.
import type { Resources } from '../../../src/app/resources';
import { sleep, waitFor } from '../../../src/shared/lifecycle';
import type { FreshnessProbe } from './freshnessProbe';
import { EventLoopWatch, type EventLoopFigures } from './opsProbe';
import { notYetVisible } from './oracle';
import type { FaultProfile } from './profile';
import type { FaultRecord } from './report';
import { timeToVisible, verifyConverged, type ProductReconciliation } from './verify';
import type { Workload } from './workload';

export interface Injected {
  /** Keep the fault in place while traffic flows (an outage), or end it at once (a kill, a storm). */
  hold: boolean;
  /** How long to hold it (default: the profile's outageMs). */
  holdMs?: number;
  /** Checks made at the end of the hold, while the fault is still in place (their figures are evidence). */
  whileHeld?(): Promise<Record<string, unknown>>;
  restore(): Promise<void>;
  evidence?(): Promise<Record<string, unknown>>;
}

export interface Expect {
  /**
   * Domains whose readers must have been told something other than FRESH while the fault lasted:
   * a CATCHING_UP or STALE marker, or (ClickHouse down, nothing to read) a clear READ_MODEL_UNAVAILABLE.
   */
  notFreshDuring?: ('fitness' | 'orders')[];
  /**
   * While the fault ends and the backlog drains: the gateway's event-loop delay p99 (ms, the highest of
   * its 5 s windows, from its own /metrics) stays under the bound this gives for the same figure under
   * steady traffic just before the fault (the profile's lagBaselineMs, same processes, same load, warm),
   * so catching up never starves the requests it serves.
   */
  gatewayLagBound?: (steadyMaxP99Ms: number) => number;
  /** Every write acknowledged before the restore is visible within this time after it (ms). */
  recoveredWithinMs?: number;
  /** Record the gateway's event-loop delay during the recovery without a bound (a reference figure). */
  watchGatewayLag?: boolean;
}

export interface CycleContext {
  resources: Resources;
  workload: Workload;
  probe: FreshnessProbe;
  reconciliation: ProductReconciliation;
  profile: FaultProfile;
  records: FaultRecord[];
  /** The gateway's operations endpoints (its event-loop delay is watched during recoveries). */
  gatewayOpsUrl: string;
}

/** Keeps a fault in place for the profile's outage while writes keep being acknowledged. */
async function holdOutage(c: CycleContext, phase: string, since: number, holdMs: number): Promise<void> {
  await waitFor(() => Date.now() - since >= holdMs && c.workload.phaseStats(phase).requests >= 10, {
    timeoutMs: holdMs + 60000,
    intervalMs: 200,
    what: `the ${phase} outage`,
  });
}

export async function runCycle(c: CycleContext, name: string, inject: () => Promise<Injected>, expectations: Expect = {}): Promise<void> {
  const { resources, workload, probe, reconciliation, profile, records } = c;
  // The steady figure the recovery's event-loop delay is held against: watched right before the fault.
  const steadyLag = expectations.gatewayLagBound ? await watchLag(c.gatewayOpsUrl, profile.lagBaselineMs) : undefined;
  workload.setPhase(name);
  probe.setPhase(name);
  const injectedAt = Date.now();
  const fault = await inject();
  // Whatever goes wrong while the fault is held (the hold times out, a check fails), the fault is still
  // restored below: it must never stay in place for the rest of the suite.
  let heldError: unknown;
  let held: Record<string, unknown> = {};
  try {
    if (fault.hold) await holdOutage(c, name, injectedAt, fault.holdMs ?? profile.outageMs);
    if (fault.whileHeld) held = await fault.whileHeld();
  } catch (err) {
    heldError = err;
    held = { whileHeldFailed: String(err) };
  }
  const recovery = `${name}:recovery`;
  workload.setPhase(recovery);
  probe.setPhase(recovery);
  // Recovery is timed from the moment the fault ends (the engine or process is being started again),
  // so it includes the restart itself, consumer-group rejoins and the backlog drain.
  const restoredAt = Date.now();
  const lag = expectations.gatewayLagBound || expectations.watchGatewayLag ? new EventLoopWatch(c.gatewayOpsUrl).start() : undefined;
  await fault.restore();
  const ackedAtRestore = [...workload.acknowledged];
  const recoveryMs = await timeToVisible(resources, ackedAtRestore, restoredAt, profile.recoveryTimeoutMs).catch(() => null);
  const gatewayLag = await lag?.stop();
  const invisibleAtTimeout = recoveryMs === null ? await notYetVisible(resources, ackedAtRestore).catch(() => -1) : 0;
  await workload.pause();
  probe.setPhase(`${name}:verify`);
  const verdict = await verifyConverged({ resources, workload, probe, reconciliation, timeoutMs: profile.recoveryTimeoutMs });
  const evidence = fault.evidence ? await fault.evidence() : {};
  const freshnessDuring: Record<string, number> = {};
  for (const s of probe.of(name)) freshnessDuring[`${s.domain}:${s.status}`] = (freshnessDuring[`${s.domain}:${s.status}`] ?? 0) + 1;
  const record: FaultRecord = {
    fault: name,
    outageMs: restoredAt - injectedAt,
    recoveryMs,
    during: workload.phaseStats(name),
    recovery: workload.phaseStats(recovery),
    freshnessDuring,
    verdict: { ...verdict, differences: verdict.differences.length },
    evidence: {
      ...held,
      ...evidence,
      ...(steadyLag ? { gatewayEventLoopP99MsBeforeFault: steadyLag } : {}),
      ...(gatewayLag ? { gatewayEventLoopP99MsDuringRecovery: gatewayLag } : {}),
      ...(recoveryMs === null ? { invisibleAtTimeout } : {}),
      productDetail: verdict.productDetail,
      firstDifferences: verdict.differences.slice(0, 5),
    },
  };
  records.push(record);
  workload.setPhase('steady');
  probe.setPhase('steady');
  workload.start();

  if (heldError) throw heldError;
  expect(verdict.differences).toEqual([]);
  expect(verdict.lost).toEqual([]);
  expect(verdict.mismatched).toEqual([]);
  expect(verdict.backlog).toEqual({ pending: 0, parked: 0, deadLettered: 0 });
  expect({ clean: verdict.productClean, discrepancies: verdict.productDiscrepancies }).toEqual({ clean: true, discrepancies: 0 });
  expect(verdict.freshnessAfter).toEqual({ fitness: 'FRESH', orders: 'FRESH' });
  expect(recoveryMs).not.toBeNull();
  // Clear answers only: data or a typed, actionable error; never a hang or an anonymous failure.
  expect({
    during: record.during.unclear,
    recovery: record.recovery.unclear,
    timeouts: record.during.timeouts + record.recovery.timeouts,
  }).toEqual({ during: 0, recovery: 0, timeouts: 0 });
  const duringSamples = probe.of(name);
  expect(duringSamples.every((s) => s.clear)).toBe(true);
  for (const d of expectations.notFreshDuring ?? []) {
    const told = readersTold(probe, name, recovery, d, fault.hold);
    record.evidence[`readersTold:${d}`] = told;
    expect({ domain: d, ...told.verdict }).toEqual({ domain: d, lastBeforeRestoreNotFresh: true, longestRunOfNotFresh: true });
  }
  expect(workload.anomalies).toEqual([]);
  if (expectations.recoveredWithinMs)
    expect({ recoveryMs, within: recoveryMs !== null && recoveryMs <= expectations.recoveredWithinMs }).toEqual({
      recoveryMs,
      within: true,
    });
  if (gatewayLag && steadyLag && expectations.gatewayLagBound) {
    expect(gatewayLag.samples).toBeGreaterThan(0);
    const boundMs = expectations.gatewayLagBound(steadyLag.maxP99Ms);
    expect({ maxP99Ms: gatewayLag.maxP99Ms, steadyMaxP99Ms: steadyLag.maxP99Ms, boundMs, under: gatewayLag.maxP99Ms < boundMs }).toEqual({
      maxP99Ms: gatewayLag.maxP99Ms,
      steadyMaxP99Ms: steadyLag.maxP99Ms,
      boundMs,
      under: true,
    });
  }
}

async function watchLag(gatewayOpsUrl: string, forMs: number): Promise<EventLoopFigures> {
  const watch = new EventLoopWatch(gatewayOpsUrl).start();
  await sleep(forMs);
  return watch.stop();
}

/**
 * Were a domain's readers told? Under ordinary load a sample is now and then CATCHING_UP (writes arrive
 * faster than a probe's interval), so one non-FRESH sample proves nothing. Demanded instead: a held
 * outage is still reported by the last sample taken before the restore; and the fault and its recovery
 * show a run of at least three consecutive non-FRESH samples (1.2 s at the probe's 400 ms), which a kill
 * (a relay's claims wait for their 4 s lease, a projector's partitions for the 10 s session timeout)
 * always gives. The longest run under steady traffic so far is recorded beside it.
 */
function readersTold(probe: FreshnessProbe, name: string, recovery: string, d: 'fitness' | 'orders', held: boolean) {
  const during = probe.of(name, d);
  const window = [...during, ...probe.of(recovery, d)];
  const longestRun = (xs: { status: string }[]) => {
    let best = 0;
    let run = 0;
    for (const x of xs) best = Math.max(best, (run = x.status === 'FRESH' ? 0 : run + 1));
    return best;
  };
  const last = during[during.length - 1]?.status;
  const figures = {
    samples: window.length,
    longestRun: longestRun(window),
    steadyLongestRun: longestRun(probe.of('steady', d)),
    lastBeforeRestore: last,
  };
  return {
    ...figures,
    verdict: {
      lastBeforeRestoreNotFresh: !held || (last !== undefined && last !== 'FRESH'),
      longestRunOfNotFresh: figures.longestRun >= 3,
    },
  };
}
