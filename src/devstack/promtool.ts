// promtool (Debian's `prometheus` package) for the alert-rule tests, installed when absent like the
// engines (idempotent: a promtool on the PATH is used as it is). Only the tool is used; the package's
// Prometheus server is not started by anything Tidemark runs.
import { aptInstall, run, which } from './system';

/** Returns the path of promtool, installing Debian's prometheus package first when it is missing. */
export function ensurePromtool(log: (l: string) => void = () => undefined): string {
  if (!which('promtool')) aptInstall(['prometheus'], log);
  const path = which('promtool');
  if (!path) throw new Error('promtool is not installed and could not be installed: apt-get install -y prometheus');
  log(run(path, ['--version']).split('\n')[0]!.trim());
  return path;
}
