// Readiness that matches what a process can do. Each engine (each fitness shard on its own) is probed
// with its own short timeout (one hung engine cannot make /readyz hang), and what a down engine means
// depends on the process's roles:
//   gateway     serves three things: fitness writes (any shard), order writes (PostgreSQL) and reads
//               (ClickHouse); while it can serve any of them it stays ready, `degraded` naming what is
//               down, so a load balancer keeps routing to it (one shard or the read store down must not
//               stop the writes that do not need it); it is not ready only when it can serve nothing.
//               Kafka down never stops it: orders go to the fallback table and fitness writes to the
//               outbox, both delivered once Kafka is back
//   relay       needs the stores it relays from and Kafka
//   projector   needs Kafka and ClickHouse
//   reconciler  needs every engine (it reads all three stores and publishes repairs)
// MySQL counts as down for a role only when every shard is; some shards down is `degraded`, with the
// shards named (shardsDown). A process with the gateway role is judged as a gateway (it is what a load
// balancer routes to). Until its roles have started (migrations run, the GraphQL port listening), the
// process is `starting`, not ready: the operations port answers first, and a load balancer must not route
// to a gateway whose port still refuses. From SIGTERM on (drain()), the process is not ready, so a load
// balancer stops routing to it before it stops accepting work.
import type { Settings } from '../config/settings';
import { lazyAdmin } from '../infra/kafka/lazyAdmin';
import { gauge, type Registry } from '../metrics/registry';
import type { Dependency, Readiness } from '../metrics/opsServer';
import { withTimeout } from '../shared/timeout';
import type { Resources } from './resources';

const DEPENDENCIES: readonly Dependency[] = ['mysql', 'postgres', 'kafka', 'clickhouse'];
type Role = Settings['roles'][number];

interface Probe {
  stores: Record<Dependency, boolean>;
  shardsUp: boolean[];
}

const REQUIRED_BY_ROLE: Record<Exclude<Role, 'gateway'>, readonly Dependency[]> = {
  relay: ['mysql', 'postgres', 'kafka'],
  projector: ['kafka', 'clickhouse'],
  reconciler: ['mysql', 'postgres', 'kafka', 'clickhouse'],
};

/** Pure: the verdict from which engines (and shards) answered. */
export function judgeReadiness(p: Probe, roles: readonly Role[], draining: boolean, starting = false): Readiness {
  const down = DEPENDENCIES.filter((d) => !p.stores[d]);
  const shardsDown = p.shardsUp.flatMap((up, i) => (up ? [] : [i]));
  const anyShard = shardsDown.length < p.shardsUp.length;
  // Engines this process cannot use at all: MySQL only when every shard is down.
  const unusable = down.filter((d) => d !== 'mysql' || !anyShard);
  let failing: Dependency[];
  if (roles.includes('gateway')) {
    const canServe = anyShard || p.stores.postgres || p.stores.clickhouse;
    failing = canServe ? [] : unusable;
  } else {
    const required = new Set(roles.flatMap((r) => (r === 'gateway' ? [] : REQUIRED_BY_ROLE[r])));
    failing = unusable.filter((d) => required.has(d));
  }
  const degraded = down.filter((d) => !failing.includes(d));
  const status = draining ? 'draining' : starting ? 'starting' : failing.length ? 'not-ready' : degraded.length ? 'degraded' : 'ready';
  return { ready: status === 'ready' || status === 'degraded', status, stores: p.stores, failing, degraded, shardsDown };
}

export interface ReadinessProbe {
  check(): Promise<Readiness>;
  /** The roles have started: from now on the engines decide (called once start() has built every role). */
  started(): void;
  /** From now on the process reports `draining` (not ready): called when SIGTERM arrives. */
  drain(): void;
  close(): Promise<void>;
}

export function readinessProbe(r: Resources, o: { roles: readonly Role[]; registry?: Registry; timeoutMs?: number }): ReadinessProbe {
  const timeoutMs = o.timeoutMs ?? 2000;
  const admin = lazyAdmin(r.kafka);
  let draining = false;
  let starting = true;
  const probes: Record<Exclude<Dependency, 'mysql'>, () => Promise<unknown>> = {
    postgres: () => r.pg.raw('SELECT 1'),
    kafka: () => admin.use((a) => a.describeCluster()),
    clickhouse: async () => {
      const p = await r.clickhouse.ping();
      if (!p.success) throw p.error;
    },
  };
  const answers = (p: Promise<unknown>, what: string) =>
    withTimeout(p, timeoutMs, `${what} readiness probe`).then(
      () => true,
      () => false,
    );
  const others = ['postgres', 'kafka', 'clickhouse'] as const;
  // Concurrent checks (a scrape and a probe at once) share one round of engine probes.
  let inFlight: Promise<Probe> | undefined;
  const probeAll = () =>
    (inFlight ??= (async (): Promise<Probe> => {
      const [shardsUp, up] = await Promise.all([
        Promise.all(r.mysql.shards.map((sh) => answers(sh.db.raw('SELECT 1'), `mysql shard ${sh.index}`))),
        Promise.all(others.map((d) => answers(probes[d](), d))),
      ]);
      const stores = { mysql: shardsUp.every(Boolean), postgres: up[0]!, kafka: up[1]!, clickhouse: up[2]! };
      return { stores, shardsUp };
    })().finally(() => {
      inFlight = undefined;
    }));
  if (o.registry) {
    gauge(o.registry, {
      name: 'tidemark_dependency_up',
      help: '1 when the engine answers this process right now (checked at each scrape, bounded by a 2 s timeout per engine).',
      labelNames: ['dependency'],
      async collect() {
        const { stores } = await probeAll();
        for (const d of DEPENDENCIES) this.set({ dependency: d }, stores[d] ? 1 : 0);
      },
    });
  }
  return {
    async check() {
      return judgeReadiness(await probeAll(), o.roles, draining, starting);
    },
    started() {
      starting = false;
    },
    drain() {
      draining = true;
    },
    close: () => admin.close(),
  };
}
