// The relay side of the drain benchmarks (row 3 and the Debezium peer row): relay worker processes
// (bench/workers/roleWorker.ts running the relay role: claim SKIP LOCKED -> sendBatch acks=all -> mark
// SENT, plus its state-change notifications) started idle, then timed from `go` until no row of the
// shard outboxes is unsent, with the CPU the workers spent meanwhile.
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Settings } from '../../src/config/settings';
import { waitFor } from '../../src/shared/lifecycle';
import { childEnvFor } from './benchEnv';
import { cpuMs, machineBusySince, machineTicks } from './cpuTime';
import { startRoleWorker, type RoleWorker } from './processes';
import type { BenchContext } from './row';
import { perSecond, round } from './stats';

export async function unsent(dbs: Knex[]): Promise<number> {
  let n = 0;
  for (const db of dbs) {
    const rows = (await db('outbox_events').whereIn('status', ['NEW', 'PROCESSING', 'FAILED']).count({ n: '*' })) as {
      n: number | string;
    }[];
    n += Number(rows[0]!.n);
  }
  return n;
}

export async function resetToNew(dbs: Knex[]): Promise<void> {
  for (const db of dbs)
    await db('outbox_events').update({
      status: 'NEW',
      attempts: 0,
      claim_token: null,
      claimed_by: null,
      lease_expires_at: null,
      next_retry_at: null,
      sent_at: null,
    });
}

/** Starts `processes` relay workers, connected but idle until go(). */
export function startRelayWorkers(ctx: BenchContext, s: Settings, processes: number, profileTag: string): Promise<RoleWorker[]> {
  return Promise.all(
    Array.from({ length: processes }, (_, i) =>
      startRoleWorker({
        name: `relay-${i + 1}`,
        roles: ['relay'],
        env: childEnvFor(s, { TIDEMARK_INSTANCE_ID: `bench-relay-${i + 1}` }),
        cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/${profileTag}` : undefined,
      }),
    ),
  );
}

export interface Drained {
  ms: number;
  perSec: number;
  cpuMsPerEvent: number;
  machineBusy: number;
  /** CPU ms per event of the `others` processes (e.g. the database server), when asked for. */
  othersCpuMsPerEvent?: number;
}

/** Lets idle workers go and waits until every row is sent; `others` are processes whose CPU is reported beside. */
export async function timeDrain(workers: RoleWorker[], dbs: Knex[], count: number, others: number[] = []): Promise<Drained> {
  const othersCpu = () => others.reduce((n, pid) => n + cpuMs(pid), 0);
  const others0 = othersCpu();
  const cpu0 = workers.reduce((n, w) => n + cpuMs(w.pid), 0);
  const t0 = performance.now();
  const ticks0 = machineTicks();
  await Promise.all(workers.map((w) => w.go()));
  await waitFor(async () => (await unsent(dbs)) === 0, { timeoutMs: 600_000, intervalMs: 100, what: 'outbox drained' });
  const ms = performance.now() - t0;
  const machineBusy = machineBusySince(ticks0);
  const cpu = workers.reduce((n, w) => n + cpuMs(w.pid), 0) - cpu0;
  const othersCpuMsPerEvent = others.length ? round((othersCpu() - others0) / count, 4) : undefined;
  return { ms, perSec: perSecond(count, ms), cpuMsPerEvent: round(cpu / count, 4), machineBusy, othersCpuMsPerEvent };
}
