// Readiness that matches what a process can do. Each engine is probed with its own short timeout (one
// hung engine cannot make /readyz hang), and what a down engine means depends on the process's roles:
//   gateway     needs MySQL and PostgreSQL (writes) and ClickHouse (reads); Kafka down only degrades
//               it: orders go to the fallback table and fitness writes to the outbox, both delivered
//               once Kafka is back, so a load balancer must keep sending it traffic
//   relay       needs the stores it relays from and Kafka
//   projector   needs Kafka and ClickHouse
//   reconciler  needs every engine (it reads all three stores and publishes repairs)
// A process with the gateway role is judged as a gateway (it is what a load balancer routes to); its
// background roles' missing engines are reported as degraded. From SIGTERM on (drain()), the process
// is not ready, so a load balancer stops routing to it before it stops accepting work.
import type { Admin } from 'kafkajs';
import type { Settings } from '../config/settings';
import { gauge, type Registry } from '../metrics/registry';
import { withTimeout } from '../shared/timeout';
import type { Resources } from './resources';

export type Dependency = 'mysql' | 'postgres' | 'kafka' | 'clickhouse';
const DEPENDENCIES: readonly Dependency[] = ['mysql', 'postgres', 'kafka', 'clickhouse'];
type Role = Settings['roles'][number];

export interface Readiness {
  /** True when the process can do its job: 200 on /readyz. */
  ready: boolean;
  status: 'ready' | 'degraded' | 'not-ready' | 'draining';
  stores: Record<Dependency, boolean>;
  /** Required engines that are down (the process cannot do its job). */
  failing: Dependency[];
  /** Engines that are down but that this process can work without for a while. */
  degraded: Dependency[];
}

const REQUIRED_BY_ROLE: Record<Role, readonly Dependency[]> = {
  gateway: ['mysql', 'postgres', 'clickhouse'],
  relay: ['mysql', 'postgres', 'kafka'],
  projector: ['kafka', 'clickhouse'],
  reconciler: ['mysql', 'postgres', 'kafka', 'clickhouse'],
};

/** The engines a process with these roles cannot work without (the gateway's rule wins when present). */
function requiredDependencies(roles: readonly Role[]): Set<Dependency> {
  if (roles.includes('gateway')) return new Set(REQUIRED_BY_ROLE.gateway);
  return new Set(roles.flatMap((r) => REQUIRED_BY_ROLE[r]));
}

/** Pure: the verdict from which engines answered. */
function judgeReadiness(stores: Record<Dependency, boolean>, required: Set<Dependency>, draining: boolean): Readiness {
  const down = DEPENDENCIES.filter((d) => !stores[d]);
  const failing = down.filter((d) => required.has(d));
  const degraded = down.filter((d) => !required.has(d));
  const status = draining ? 'draining' : failing.length ? 'not-ready' : degraded.length ? 'degraded' : 'ready';
  return { ready: status === 'ready' || status === 'degraded', status, stores, failing, degraded };
}

export interface ReadinessProbe {
  check(): Promise<Readiness>;
  /** From now on the process reports `draining` (not ready): called when SIGTERM arrives. */
  drain(): void;
  close(): Promise<void>;
}

export function readinessProbe(r: Resources, o: { roles: readonly Role[]; registry?: Registry; timeoutMs?: number }): ReadinessProbe {
  const timeoutMs = o.timeoutMs ?? 2000;
  const required = requiredDependencies(o.roles);
  let admin: Admin | undefined;
  let draining = false;
  const probes: Record<Dependency, () => Promise<unknown>> = {
    mysql: () => Promise.all(r.mysql.shards.map((s) => s.db.raw('SELECT 1'))),
    postgres: () => r.pg.raw('SELECT 1'),
    kafka: async () => {
      if (!admin) {
        admin = r.kafka.admin();
        await admin.connect();
      }
      try {
        await admin.describeCluster();
      } catch (e) {
        const a = admin;
        admin = undefined;
        await a.disconnect().catch(() => undefined);
        throw e;
      }
    },
    clickhouse: async () => {
      const p = await r.clickhouse.ping();
      if (!p.success) throw p.error;
    },
  };
  // Concurrent checks (a scrape and a probe at once) share one round of engine probes.
  let inFlight: Promise<Record<Dependency, boolean>> | undefined;
  const probeAll = () =>
    (inFlight ??= (async () => {
      const results = await Promise.allSettled(DEPENDENCIES.map((d) => withTimeout(probes[d](), timeoutMs, `${d} readiness probe`)));
      return Object.fromEntries(DEPENDENCIES.map((d, i) => [d, results[i]!.status === 'fulfilled'])) as Record<Dependency, boolean>;
    })().finally(() => {
      inFlight = undefined;
    }));
  if (o.registry) {
    gauge(o.registry, {
      name: 'tidemark_dependency_up',
      help: '1 when the engine answers this process right now (checked at each scrape, bounded by a 2 s timeout per engine).',
      labelNames: ['dependency'],
      async collect() {
        const stores = await probeAll();
        for (const d of DEPENDENCIES) this.set({ dependency: d }, stores[d] ? 1 : 0);
      },
    });
  }
  return {
    async check() {
      return judgeReadiness(await probeAll(), required, draining);
    },
    drain() {
      draining = true;
    },
    async close() {
      await admin?.disconnect().catch(() => undefined);
    },
  };
}
