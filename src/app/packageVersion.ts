// The running Tidemark version (package.json), for health answers and logs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../config/paths';

let version: string | undefined;

/** Read once per process: start-up, tracing and the gateway each ask for it. */
export function packageVersion(): string {
  if (version === undefined) {
    try {
      version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      version = 'unknown';
    }
  }
  return version;
}
