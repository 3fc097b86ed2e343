// How hard the fault suite pushes. Both profiles write about 20 fitness writes/s and 10 orders/s.
// `npm test` (and so CI) runs the reduced profile: every fault once, a 30 s Kafka outage, short other
// outages. `npm run test:faults` runs the full profile: 3-minute Kafka outages, longer others, and the
// disruptive faults repeated.

export interface FaultProfile {
  name: 'reduced' | 'full';
  workers: number;
  /** Writes per second, all kinds together. */
  ratePerSecond: number;
  /** Share of the writes that are orders (the rest are fitness records, corrections and deletions). */
  orderShare: number;
  /** How long a stopped engine stays down while traffic flows. */
  outageMs: number;
  /** How long Kafka stays down (or hung) in its outage cycles: the production-condition outage. */
  kafkaOutageMs: number;
  /** How long ClickHouse stays stopped in its outage cycles (issue 30 asks for 60 s under steady writes). */
  clickhouseOutageMs: number;
  /** How long connection-kill storms last. */
  stormMs: number;
  /** Traffic before the first fault and between faults. */
  steadyMs: number;
  /**
   * Steady traffic watched right before a fault whose recovery bounds the gateway's event-loop delay:
   * the reference figure, taken from the same warm processes under the same load.
   */
  lagBaselineMs: number;
  /** How many times the Kafka and ClickHouse outages are repeated. */
  repeats: number;
  /** Longest acceptable recovery (restore -> every acknowledged write visible) before the suite fails. */
  recoveryTimeoutMs: number;
  /** Jest timeout of one fault cycle. */
  cycleTimeoutMs: number;
  /**
   * Whether the erasure cycle runs (a student erased while relay, projector and reconciler are killed):
   * about a minute of Kafka compaction and ClickHouse guard waits, so only in the full profile, which keeps
   * `npm test` within its time budget; test/e2e/erasure.e2e.spec.ts covers the erasure itself in every run.
   */
  erasureCycle: boolean;
}

export const REDUCED: FaultProfile = {
  name: 'reduced',
  workers: 6,
  ratePerSecond: 30,
  orderShare: 1 / 3,
  outageMs: 5000,
  kafkaOutageMs: 30000,
  clickhouseOutageMs: 5000,
  stormMs: 3000,
  steadyMs: 3000,
  lagBaselineMs: 10000,
  repeats: 1,
  recoveryTimeoutMs: 150000,
  cycleTimeoutMs: 240000,
  erasureCycle: false,
};

export const FULL: FaultProfile = {
  name: 'full',
  workers: 8,
  ratePerSecond: 30,
  orderShare: 1 / 3,
  outageMs: 20000,
  kafkaOutageMs: 180000,
  clickhouseOutageMs: 60000,
  stormMs: 10000,
  steadyMs: 8000,
  lagBaselineMs: 30000,
  repeats: 2,
  recoveryTimeoutMs: 180000,
  cycleTimeoutMs: 600000,
  erasureCycle: true,
};

export function selectedProfile(env: NodeJS.ProcessEnv = process.env): FaultProfile {
  return env.FAULTS_PROFILE === 'full' ? FULL : REDUCED;
}
