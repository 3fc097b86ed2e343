// Row 5, end to end: open-loop writes (GraphQL recordFitnessResult) at half the write path's measured
// capacity (the lower of row 1's figure and a closed-loop probe taken here with the relay and the
// projector running) against the gateway child, with the relay and the projector running in a second
// child process, for a fixed time. For a sample of the writes (about 20 per second) the bench polls
// `fitnessResult(dataId)` through the gateway every POLL_MS from the moment the mutation was
// acknowledged until the new version is returned: that interval is commit-to-visible latency.
import { performance } from 'node:perf_hooks';
import { benchEnv, childEnvFor } from '../lib/benchEnv';
import { RECORD_MUTATION, recordInput } from '../lib/fitnessWorkload';
import { startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import { closedLoop, openLoop } from '../lib/load';
import { startRoleWorker, type RoleWorker } from '../lib/processes';
import { notBuilt, type BenchRow, type RowResult } from '../lib/row';
import { perSecond, round, summarize } from '../lib/stats';

const NAME = 'end to end: commit -> visible';
const UNIT = 'ms p50';
const TARGET = 'p50 <= 300 ms, p99 <= 1000 ms';
const POLL_MS = 20;
const PROBES_PER_SEC = 20;

const LOOKUP = `query Lookup($dataId: ID!) { fitnessResult(dataId: $dataId) { result { version } freshness { status } } }`;

export const endToEndRow: BenchRow = {
  id: 5,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const durationMs = ctx.quick ? 12_000 : 60_000;
    const env = await benchEnv();
    const s = env.settings;
    let gw: GatewayUnderTest | undefined;
    let worker: RoleWorker | undefined;
    try {
      gw = await startGatewayUnderTest(s, { cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row5` : undefined });
      const ops = await gw.operations();
      if (!ops.mutation.has('recordFitnessResult') || !ops.query.has('fitnessResult'))
        return notBuilt(5, NAME, UNIT, TARGET, 'needs the recordFitnessResult mutation and the fitnessResult query');
      worker = await startRoleWorker({
        name: 'relay+projector',
        roles: ['relay', 'projector'],
        env: childEnvFor(s),
        cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row5-worker` : undefined,
      });
      await worker.go();
      const writer = await gw.client('service', 256);
      const reader = await gw.client('service', 64);
      let n = 0;
      const record = async () =>
        (
          await writer.request<{ recordFitnessResult: { result: { dataId: string; version: number } } }>(RECORD_MUTATION, {
            input: recordInput(n++),
          })
        ).recordFitnessResult.result;

      // The write path's capacity while the relay and the projector share the machine: row 1
      // measures it with nothing else running, which on 2 cores overstates what is left for writes
      // once the pipeline works too. The lower of the two is the 100% the open loop takes half of.
      const probe = await closedLoop({ concurrency: 32, durationMs: ctx.quick ? 4000 : 10000, op: async () => void (await record()) });
      const pipelineCapacity = perSecond(probe.ok, probe.elapsedMs);
      // Let the relay and projector catch up with the probe's writes before the measured load starts.
      await new Promise((r) => setTimeout(r, ctx.quick ? 2000 : 5000));
      const capacity = Math.min(pipelineCapacity, ctx.writeCapacityPerSec ?? Number.POSITIVE_INFINITY);
      const capacitySource = ctx.writeCapacityPerSec
        ? `min(row 1: ${ctx.writeCapacityPerSec}/s, with relay+projector running: ${pipelineCapacity}/s)`
        : `with relay+projector running: ${pipelineCapacity}/s (row 1 not run)`;
      const rate = Math.max(1, Math.round(capacity * 0.5));
      const every = Math.max(1, Math.round(rate / PROBES_PER_SEC));
      const visible: number[] = [];
      let notVisible = 0;
      const polls: Promise<void>[] = [];
      const watch = (dataId: string, version: number) => {
        const acked = performance.now();
        polls.push(
          (async () => {
            const deadline = acked + 30_000;
            while (performance.now() < deadline) {
              const d = await reader
                .request<{ fitnessResult: { result: { version: number } | null } }>(LOOKUP, { dataId })
                .catch(() => undefined);
              if ((d?.fitnessResult.result?.version ?? 0) >= version) {
                visible.push(performance.now() - acked);
                return;
              }
              await new Promise((r) => setTimeout(r, POLL_MS));
            }
            notVisible++;
          })(),
        );
      };
      ctx.log(`row 5: ${rate} writes/s open loop for ${durationMs} ms (capacity ${capacity}/s, ${capacitySource})`);
      const load = await openLoop({
        ratePerSec: rate,
        durationMs,
        maxInFlight: 2000,
        op: async (seq) => {
          const r = await record();
          if (seq % every === 0) watch(r.dataId, r.version);
        },
      });
      await Promise.all(polls);
      const lat = summarize(visible);
      const met = lat.p50 <= 300 && lat.p99 <= 1000 && notVisible === 0;
      return {
        id: 5,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: lat.p50,
        target: TARGET,
        met,
        details: {
          commitToVisibleMs: lat,
          probes: visible.length + notVisible,
          notVisibleWithin30s: notVisible,
          pollMs: POLL_MS,
          offeredRatePerSec: rate,
          achievedWritesPerSec: perSecond(load.ok, load.elapsedMs),
          writeCapacityPerSec: capacity,
          capacitySource,
          writeAckMs: summarize(load.latencies),
          failedWrites: load.failed,
          failures: load.failures,
          durationMs,
          relayPollIntervalMs: s.relayPollIntervalMs,
          projectorFlushIntervalMs: s.projectorFlushIntervalMs,
        },
        note: `p50 ${lat.p50} ms, p99 ${lat.p99} ms over ${visible.length} probes at ${round(perSecond(load.ok, load.elapsedMs), 0)} writes/s${load.failed ? `; ${load.failed} writes failed` : ''}`,
      };
    } finally {
      await worker?.stop().catch(() => undefined);
      await gw?.stop().catch(() => undefined);
      await env.cleanup();
    }
  },
};
