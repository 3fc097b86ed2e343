// The local stack: the four engines Tidemark needs, brought up in parallel and idempotently. MariaDB is
// one service per server (mariadbServers.ts): the machine's, the stack's second one, any a shard names.
import { resolve } from 'node:path';
import { repoRoot } from '../config/paths';
import type { Settings } from '../config/settings';
import { clickhouseService } from './clickhouse';
import { kafkaService } from './kafka';
import { mariadbService } from './mariadb';
import { mariadbServers } from './mariadbServers';
import { mariadbStackService } from './mariadbStack';
import { postgresService } from './postgres';
import type { StackContext, StackService } from './service';

export { repoRoot };

export function stackServices(settings: Settings, log: (l: string) => void = () => undefined): StackService[] {
  const ctx: StackContext = { settings, dir: resolve(repoRoot, settings.stackDir), root: repoRoot, log };
  const mariadb = mariadbServers(settings).map((server) =>
    server.kind === 'stack' ? mariadbStackService(ctx, server) : mariadbService(ctx, server),
  );
  return [...mariadb, postgresService(ctx), kafkaService(ctx), clickhouseService(ctx)];
}

export interface ServiceStatus {
  name: string;
  address: string;
  answers: boolean;
}

export async function stackStatus(services: StackService[]): Promise<ServiceStatus[]> {
  return Promise.all(services.map(async (s) => ({ name: s.name, address: s.address, answers: await s.check() })));
}

/**
 * Brings every engine up; reports every failure together rather than stopping at the first. `progress`
 * gets one line per engine as it becomes ready.
 */
export async function stackUp(services: StackService[], progress: (line: string) => void = () => undefined): Promise<void> {
  const started = Date.now();
  const up = async (s: StackService) => {
    await s.up();
    progress(`${s.name.padEnd(10)} ${s.address.padEnd(21)} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  const results = await Promise.allSettled(services.map(up));
  const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [`${services[i]!.name}: ${(r.reason as Error).message}`] : []));
  if (failed.length) throw new Error(`stack up failed:\n  ${failed.join('\n  ')}`);
}

export async function stackDown(services: StackService[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const s of [...services].reverse()) out[s.name] = await s.down();
  return out;
}
