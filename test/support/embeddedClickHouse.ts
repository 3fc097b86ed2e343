// The embedded ClickHouse (chdb) in tests: libchdb locks a data directory to one process, so every test
// process, and every role process a test spawns, opens a directory of its own.
import type { Settings } from '../../src/config/settings';

export function ownEmbeddedClickHouse(s: Settings): Partial<Settings> {
  return s.clickhouseEngine === 'embedded' ? { clickhouseEmbeddedPath: `${s.stackDir}/engines/ch-${process.pid}` } : {};
}
