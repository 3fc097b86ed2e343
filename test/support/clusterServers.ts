// What a suite that runs on the ClickHouse cluster (npm run test:cluster) asks of each of its servers:
// a cluster's DDL is ON CLUSTER and its tables are a Distributed table over a local table on every
// server, so a table left behind (or missing) on one server is only seen by asking that server.
import { repoRoot, stackPath } from '../../src/config/paths';
import type { Settings } from '../../src/config/settings';
import { clickhouseClusterStack, clusterNodeClient } from '../../src/devstack/clickhouseCluster';
import type { ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';

/** `ask` on every server of the local cluster, in the cluster's order (s1r1, s2r1, s2r2). */
export async function onEveryServer<T>(s: Settings, ask: (c: ClickHouseClient) => Promise<T>): Promise<{ server: string; answer: T }[]> {
  const stack = clickhouseClusterStack({ stackDir: stackPath(s), root: repoRoot, log: () => undefined });
  const answers: { server: string; answer: T }[] = [];
  for (const node of stack.nodes) {
    const c = clusterNodeClient(node.httpUrl);
    try {
      answers.push({ server: node.name, answer: await ask(c) });
    } finally {
      await c.close();
    }
  }
  return answers;
}

/**
 * A server's table names as the tables a reader knows: each `t` that is a Distributed table beside its
 * local table `t_local` once, as `t`. A Distributed table without its local table, or a local table
 * without its Distributed table, stays visible (`t (no t_local)`, `t_local`), so a half-dropped table
 * never reads as the whole one.
 */
export function logicalTables(names: string[]): string[] {
  const has = new Set(names);
  return names
    .filter((n) => !(n.endsWith('_local') && has.has(n.slice(0, -'_local'.length))))
    .map((n) => (n.endsWith('_local') || has.has(`${n}_local`) ? n : `${n} (no ${n}_local)`));
}

/**
 * The logical tables when every server holds the same ones; otherwise every server's names as
 * `<server>:<name>`, so an expectation of the logical list fails and names the server that differs.
 */
export function sameOnEveryServer(answers: { server: string; answer: string[] }[]): string[] {
  const logical = answers.map((a) => logicalTables(a.answer));
  if (logical.every((l) => JSON.stringify(l) === JSON.stringify(logical[0]))) return logical[0] ?? [];
  return answers.flatMap((a) => a.answer.map((n) => `${a.server}:${n}`));
}
