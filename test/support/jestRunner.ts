// What the test runner scripts (`npm run test:engines`, `npm run test:cluster`) share: they bring up
// the engines a run needs, then run jest's integration project in a child with their environment and
// exit with its status, or with 1 and one line naming what failed when they could not start it.
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../../src/config/paths';

/**
 * Runs `jest ...args --selectProjects int` from the repository root; returns its exit status. The
 * project option comes last: it takes a list, and placed first it would swallow the paths of `args`.
 */
export function runJestInt(args: string[], env: NodeJS.ProcessEnv): number {
  const jest = spawnSync('npx', ['jest', ...args, '--selectProjects', 'int'], { cwd: repoRoot, env, stdio: 'inherit' });
  return jest.status ?? 1;
}

/** Runs a runner's main and exits the process with its status. */
export function exitWith(runner: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${runner}: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
