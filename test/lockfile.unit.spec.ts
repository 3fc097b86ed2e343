// `npm ci` refuses a lock file that lacks any optional dependency of a package in it. The registry
// reachable here serves only chdb's linux-x64 library, so `npm install` silently drops the other
// platforms' entries, and CI then fails before a single test runs (it did, once). This says why at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockPackage {
  optionalDependencies?: Record<string, string>;
}

describe('package-lock.json', () => {
  it('lists every optional dependency of every locked package, as npm ci requires', () => {
    const lock = JSON.parse(readFileSync(join(__dirname, '..', 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
    const missing = Object.entries(lock.packages).flatMap(([path, p]) =>
      Object.keys(p.optionalDependencies ?? {})
        .filter((dep) => !lock.packages[`node_modules/${dep}`] && !lock.packages[`${path}/node_modules/${dep}`])
        .map((dep) => `${path || '(root)'} -> ${dep} (add it as an optional entry with its os/cpu; see docs/stack.md)`),
    );
    expect(missing).toEqual([]);
  });
});
