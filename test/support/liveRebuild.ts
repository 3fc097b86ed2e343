// What a test of a rebuild on a live scope needs beside its load: the operator's rebuild, followed
// until it ends (rebuildProjection answers within REBUILD_WAIT_MS, the rebuild goes on and is listed
// by projectionRebuilds), and the rebuild's tables left in ClickHouse (on a cluster: on every server).
import { repoRoot, stackPath } from '../../src/config/paths';
import type { Settings } from '../../src/config/settings';
import { clickhouseClusterStack, clusterNodeClient } from '../../src/devstack/clickhouseCluster';
import type { ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { str } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';
import {
  LiveRebuildsDocument,
  RebuildProjectionDocument,
  type EventDomain,
  type LiveRebuildsQuery,
  type ReconciliationScopeInput,
} from '../generated/graphql';
import { execute } from './graphqlClient';

export type RebuildState = LiveRebuildsQuery['projectionRebuilds'][number];

/** Starts a rebuild of `scope` and polls projectionRebuilds until it is no longer RUNNING. */
export async function rebuildUntilDone(o: {
  url: string;
  operator: Record<string, string>;
  domain: EventDomain;
  scope: ReconciliationScopeInput;
  reason: string;
  timeoutMs: number;
}): Promise<{ rebuild: RebuildState; ms: number }> {
  const t0 = Date.now();
  const started = await execute(o.url, RebuildProjectionDocument, { domain: o.domain, scope: o.scope, reason: o.reason }, o.operator);
  if (started.errors || !started.data) throw new Error(`rebuildProjection refused: ${JSON.stringify(started.errors ?? started.status)}`);
  const id = started.data.rebuildProjection.id;
  const rebuild = await waitFor(
    async () => {
      const r = await execute(o.url, LiveRebuildsDocument, { domain: o.domain, first: 10 }, o.operator);
      const mine = r.data?.projectionRebuilds.find((x) => x.id === id);
      return mine && mine.status !== 'RUNNING' ? mine : undefined;
    },
    { timeoutMs: o.timeoutMs, intervalMs: 500, what: `rebuild ${id} to end` },
  );
  return { rebuild, ms: Date.now() - t0 };
}

/** The rebuild's record as one line for a log: phase, outcome, error, validation (JSON, shortened). */
export function describeRebuild(r: RebuildState): string {
  const error = r.errorCode ? `; ${r.errorCode}: ${r.errorSummary ?? ''}` : '';
  const validation = r.validation && r.validation.length > 900 ? `${r.validation.slice(0, 900)}...` : r.validation;
  return `rebuild ${r.id} ${r.status} in phase ${r.phase} (${r.sourceRows} source rows, ${r.quarantined} quarantined)${error}; validation ${validation}`;
}

const REBUILD_TABLES = (database: string) =>
  `SELECT name FROM system.tables WHERE database = ${str(database)} ` +
  `AND (position(name, '__rebuild_') > 0 OR position(name, '__retired_') > 0) ORDER BY name`;

/** Shadow and retired tables of rebuilds still in the suite's database: `<server>:<table>` on a cluster. */
export async function rebuildTablesLeft(s: Settings, ch: ClickHouseClient): Promise<string[]> {
  const names = async (c: ClickHouseClient) =>
    (await (await c.query({ query: REBUILD_TABLES(s.clickhouseDatabase), format: 'JSONEachRow' })).json<{ name: string }>()).map(
      (r) => r.name,
    );
  if (!s.clickhouseCluster) return names(ch);
  const stack = clickhouseClusterStack({ stackDir: stackPath(s), root: repoRoot, log: () => undefined });
  const left: string[] = [];
  for (const node of stack.nodes) {
    const c = clusterNodeClient(node.httpUrl);
    try {
      left.push(...(await names(c)).map((t) => `${node.name}:${t}`));
    } finally {
      await c.close();
    }
  }
  return left;
}
