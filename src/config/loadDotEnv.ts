// `.env` at the repository root, loaded by every entry point (npm start, the stack manager, migrate,
// the tidemark command line) before settings are read. Variables already in the environment win, so
// `FOO=1 npm start` overrides `.env`; a missing file is fine (every setting has a default).
import { config } from 'dotenv';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export const dotEnvFile = join(repoRoot, '.env');

/** Adds the file's variables that `env` does not have yet; nothing when the file is absent. */
export function loadDotEnvFile(file: string, env: NodeJS.ProcessEnv = process.env): void {
  if (existsSync(file)) config({ path: file, override: false, quiet: true, processEnv: env as Record<string, string> });
}

loadDotEnvFile(dotEnvFile);
