// The suite's closing figures: per fault, when it was injected and restored, how long recovery took,
// what the gateway answered meanwhile and what readers were told; in total, writes acknowledged,
// writes found in ClickHouse, faults injected, discrepancies after recovery. Written as JSON next to
// the suite's stack folder and printed as a table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../src/devstack/stack';
import type { PhaseStats } from './workload';
import type { Verdict } from './verify';

export interface FaultRecord {
  fault: string;
  outageMs: number;
  recoveryMs: number | null;
  during: PhaseStats;
  recovery: PhaseStats;
  freshnessDuring: Record<string, number>;
  verdict: Omit<Verdict, 'differences' | 'productDetail'> & { differences: number };
  evidence: Record<string, unknown>;
}

export interface SuiteReport {
  /** Which suite (the fault suite, the broker-loss suite). */
  suite: string;
  profile: string;
  startedAt: string;
  durationMs: number;
  faultsInjected: number;
  writesAcknowledged: number;
  committedAfterUnknownOutcome: number;
  writesFound: number;
  discrepanciesAfterRecovery: number;
  faults: FaultRecord[];
  anomalies: string[];
}

export function printReport(r: SuiteReport): string {
  const lines = [
    `${r.suite} (${r.profile}): ${r.faultsInjected} faults, ${r.writesAcknowledged} writes acknowledged, ${r.writesFound} found, ` +
      `${r.committedAfterUnknownOutcome} committed after an unknown outcome, ${r.discrepanciesAfterRecovery} discrepancies after recovery, ${Math.round(r.durationMs / 1000)} s`,
    'fault                          outage s  recovery s  converged s  acked/req during  errors during                     freshness during',
  ];
  for (const f of r.faults) {
    const errors =
      Object.entries(f.during.errors)
        .map(([k, v]) => `${k}:${v}`)
        .join(' ') || '-';
    const fresh =
      Object.entries(f.freshnessDuring)
        .map(([k, v]) => `${k}:${v}`)
        .join(' ') || '-';
    lines.push(
      `${f.fault.padEnd(30)} ${(f.outageMs / 1000).toFixed(1).padStart(8)}  ${(f.recoveryMs === null ? '-' : (f.recoveryMs / 1000).toFixed(1)).padStart(10)}  ${(f.verdict.convergedMs / 1000).toFixed(1).padStart(11)}  ${`${f.during.acknowledged}/${f.during.requests}`.padStart(16)}  ${errors.slice(0, 32).padEnd(32)}  ${fresh}`,
    );
  }
  return lines.join('\n');
}

export function writeReport(r: SuiteReport): string {
  const dir = join(repoRoot, '.tidemark', 'faults');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `report-${r.suite === 'faults' ? '' : `${r.suite}-`}${r.profile}.json`);
  writeFileSync(file, JSON.stringify(r, null, 2));
  return file;
}
