// How hard the fault suite pushes. `npm test` (and so CI) runs the reduced profile: every fault once,
// short outages, modest traffic, a few minutes in all. `npm run test:faults` runs the full profile:
// longer outages, more traffic, and the disruptive faults repeated.

export interface FaultProfile {
  name: 'reduced' | 'full';
  workers: number;
  ratePerSecond: number;
  /** How long a stopped engine stays down while traffic flows. */
  outageMs: number;
  /** How long connection-kill storms last. */
  stormMs: number;
  /** Traffic before the first fault and between faults. */
  steadyMs: number;
  /** How many times the Kafka and ClickHouse outages are repeated. */
  repeats: number;
  /** Longest acceptable recovery (restore -> every acknowledged write visible) before the suite fails. */
  recoveryTimeoutMs: number;
  /** Jest timeout of one fault cycle. */
  cycleTimeoutMs: number;
}

export const REDUCED: FaultProfile = {
  name: 'reduced',
  workers: 4,
  ratePerSecond: 20,
  outageMs: 5000,
  stormMs: 3000,
  steadyMs: 3000,
  repeats: 1,
  recoveryTimeoutMs: 150000,
  cycleTimeoutMs: 240000,
};

export const FULL: FaultProfile = {
  name: 'full',
  workers: 8,
  ratePerSecond: 40,
  outageMs: 20000,
  stormMs: 10000,
  steadyMs: 8000,
  repeats: 2,
  recoveryTimeoutMs: 180000,
  cycleTimeoutMs: 600000,
};

export function selectedProfile(env: NodeJS.ProcessEnv = process.env): FaultProfile {
  return env.FAULTS_PROFILE === 'full' ? FULL : REDUCED;
}
