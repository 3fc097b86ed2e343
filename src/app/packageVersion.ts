// The running Tidemark version (package.json), for health answers and logs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../devstack/stack';

export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
