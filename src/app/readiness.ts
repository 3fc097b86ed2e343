// Readiness: does every store answer right now? Each probe has its own short timeout so one hung
// engine cannot make /readyz hang; the answer names the stores that failed.
import type { Admin } from 'kafkajs';
import type { Resources } from './resources';

export type StoreName = 'mysql' | 'postgres' | 'kafka' | 'clickhouse';
export interface Readiness {
  ready: boolean;
  stores: Record<StoreName, boolean>;
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('probe timed out')), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

export function readinessProbe(r: Resources, timeoutMs = 2000): { check(): Promise<Readiness>; close(): Promise<void> } {
  let admin: Admin | undefined;
  const probes: Record<StoreName, () => Promise<unknown>> = {
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
  return {
    async check() {
      const names = Object.keys(probes) as StoreName[];
      const results = await Promise.allSettled(names.map((n) => within(probes[n](), timeoutMs)));
      const stores = Object.fromEntries(names.map((n, i) => [n, results[i]!.status === 'fulfilled'])) as Record<StoreName, boolean>;
      return { ready: Object.values(stores).every(Boolean), stores };
    },
    async close() {
      await admin?.disconnect().catch(() => undefined);
    },
  };
}
