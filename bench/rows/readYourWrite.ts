// Row 10, read your write, beside row 5: the same open-loop write load (half the write path's
// capacity with the relay and the projector running), and for ~20 writes/s the time from the
// mutation's acknowledgement to the answer of ONE `fitnessResult(dataId, consistency: { atLeast:
// [token] })` read that waits for the write (notices from the projector, no polling). In the same run
// and under the same load, other sampled writes are polled the way row 5 does (every 20 ms until the
// version is returned), so the comparison does not depend on two runs: target p50 <= 1.2x polling.
import { performance } from 'node:perf_hooks';
import { benchEnv, childEnvFor } from '../lib/benchEnv';
import { recordInput } from '../lib/fitnessWorkload';
import { startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import { closedLoop, openLoop } from '../lib/load';
import { startRoleWorker, type RoleWorker } from '../lib/processes';
import { notBuilt, type BenchRow, type RowResult } from '../lib/row';
import { latencyRatio, perSecond, round, summarize } from '../lib/stats';

const NAME = 'read your write: ack -> consistent read';
const UNIT = 'ms p50';
const TARGET = 'p50 <= 1.2x polling (row 5 method, same run)';
const POLL_MS = 20;
const PROBES_PER_SEC = 20;

const RECORD = `mutation Record($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId version } consistencyToken } }`;
const LOOKUP = `query Lookup($dataId: ID!) { fitnessResult(dataId: $dataId) { result { version } } }`;
const CONSISTENT = `query Consistent($dataId: ID!, $t: String!) {
  fitnessResult(dataId: $dataId, consistency: { atLeast: [$t], maxWaitMs: 10000 }) { result { version } freshness { missing { version } } } }`;

type Recorded = { recordFitnessResult: { result: { dataId: string; version: number }; consistencyToken: string } };
type Looked = { fitnessResult: { result: { version: number } | null; freshness?: { missing: unknown[] } } };

export const readYourWriteRow: BenchRow = {
  id: 10,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const durationMs = ctx.quick ? 12_000 : 60_000;
    const env = await benchEnv();
    const s = env.settings;
    let gw: GatewayUnderTest | undefined;
    let worker: RoleWorker | undefined;
    try {
      gw = await startGatewayUnderTest(s, { cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row10` : undefined });
      const ops = await gw.operations();
      if (!ops.subscription.has('writeVisible')) return notBuilt(10, NAME, UNIT, TARGET, 'needs consistency tokens (writeVisible)');
      worker = await startRoleWorker({ name: 'relay+projector', roles: ['relay', 'projector'], env: childEnvFor(s) });
      await worker.go();
      const writer = await gw.client('service', 256);
      const reader = await gw.client('service', 256);
      let n = 0;
      const record = async () => (await writer.request<Recorded>(RECORD, { input: recordInput(n++) })).recordFitnessResult;
      const probe = await closedLoop({ concurrency: 32, durationMs: ctx.quick ? 4000 : 10000, op: async () => void (await record()) });
      const pipelineCapacity = perSecond(probe.ok, probe.elapsedMs);
      await new Promise((r) => setTimeout(r, ctx.quick ? 2000 : 5000));
      const capacity = Math.min(pipelineCapacity, ctx.writeCapacityPerSec ?? Number.POSITIVE_INFINITY);
      const rate = Math.max(1, Math.round(capacity * 0.5));
      const every = Math.max(1, Math.round(rate / PROBES_PER_SEC));
      const consistent: number[] = [];
      const polled: number[] = [];
      let missing = 0;
      let failedReads = 0;
      const reads: Promise<void>[] = [];
      const poll = async (dataId: string, version: number, acked: number) => {
        while (performance.now() < acked + 30_000) {
          const d = await reader.request<Looked>(LOOKUP, { dataId }).catch(() => undefined);
          if ((d?.fitnessResult.result?.version ?? 0) >= version) return void polled.push(performance.now() - acked);
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      };
      const once = async (dataId: string, t: string, acked: number) => {
        const d = await reader.request<Looked>(CONSISTENT, { dataId, t }).catch(() => undefined);
        if (!d) failedReads++;
        else if (d.fitnessResult.freshness?.missing.length) missing++;
        else consistent.push(performance.now() - acked);
      };
      ctx.log(`row 10: ${rate} writes/s open loop for ${durationMs} ms (capacity ${capacity}/s)`);
      let sampled = 0;
      const load = await openLoop({
        ratePerSec: rate,
        durationMs,
        maxInFlight: 2000,
        op: async (seq) => {
          const r = await record();
          if (seq % every !== 0) return;
          const acked = performance.now();
          // Alternate: one sampled write read consistently, the next polled (row 5's method).
          reads.push(
            sampled++ % 2 === 0 ? once(r.result.dataId, r.consistencyToken, acked) : poll(r.result.dataId, r.result.version, acked),
          );
        },
      });
      await Promise.all(reads);
      const ours = summarize(consistent);
      const base = summarize(polled);
      const met = ours.p50 <= 1.2 * base.p50 && missing === 0 && failedReads === 0;
      return {
        id: 10,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: ours.p50,
        ceiling: base.p50,
        ratio: latencyRatio(ours.p50, base.p50),
        target: TARGET,
        met,
        details: {
          consistentReadMs: ours,
          pollingMs: base,
          missingAfterWait: missing,
          failedReads,
          offeredRatePerSec: rate,
          achievedWritesPerSec: perSecond(load.ok, load.elapsedMs),
          writeCapacityPerSec: capacity,
          failedWrites: load.failed,
          durationMs,
        },
        note:
          `consistent read p50 ${ours.p50} ms, p99 ${ours.p99} ms (${consistent.length} reads); polling p50 ${base.p50} ms, ` +
          `p99 ${base.p99} ms (${polled.length}) at ${round(perSecond(load.ok, load.elapsedMs), 0)} writes/s`,
      };
    } finally {
      await worker?.stop().catch(() => undefined);
      await gw?.stop().catch(() => undefined);
      await env.cleanup();
    }
  },
};
