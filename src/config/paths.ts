// Folders derived from the settings, resolved against the repository root (not the working directory),
// so `npm start`, the stack manager and tests started from anywhere find the same data.
import { resolve } from 'node:path';
import type { Settings } from './settings';

export const repoRoot = resolve(__dirname, __dirname.includes(`${'/dist/'}`) ? '../../..' : '../..');

export function stackPath(s: Pick<Settings, 'stackDir'>): string {
  return resolve(repoRoot, s.stackDir);
}

/** The embedded ClickHouse's data directory (CLICKHOUSE_EMBEDDED_PATH, else <STACK_DIR>/clickhouse-embedded). */
export function embeddedClickHousePath(s: Pick<Settings, 'stackDir' | 'clickhouseEmbeddedPath'>): string {
  return s.clickhouseEmbeddedPath ? resolve(repoRoot, s.clickhouseEmbeddedPath) : resolve(stackPath(s), 'clickhouse-embedded');
}
