// Role processes of an integration test environment as the fault actions see them (FaultTarget), for
// tests of the suite's own checks and of SIGTERM drain: named pids that can be frozen, thawed and
// killed, with a record of what was killed, and the environment a role process needs to run against a
// TestEnv's private databases and topics.
import { readFileSync } from 'node:fs';
import type { FaultTarget } from './faultActions';

export class ProcessTargets implements FaultTarget {
  readonly pids = new Map<string, number>();
  readonly killed: string[] = [];
  add(name: string, pid: number): void {
    this.pids.set(name, pid);
  }
  freeze(name: string): void {
    process.kill(this.pid(name), 'SIGSTOP');
  }
  thaw(name: string): void {
    process.kill(this.pid(name), 'SIGCONT');
  }
  async kill(name: string): Promise<void> {
    this.killed.push(name);
    process.kill(this.pid(name), 'SIGKILL');
  }
  /** The process state letter of Linux /proc: 'T' while SIGSTOPped, 'S' or 'R' while running. */
  state(name: string): string {
    return readFileSync(`/proc/${this.pid(name)}/stat`, 'utf8')
      .split(') ')[1]!
      .slice(0, 1);
  }
  private pid(name: string): number {
    const pid = this.pids.get(name);
    if (!pid) throw new Error(`no process named ${name}`);
    return pid;
  }
}
