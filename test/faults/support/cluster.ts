// The Tidemark deployment under test: one gateway, relays, projectors and one reconciler, each a
// separate process (roleProcesses.ts), so relays and projectors can be added, SIGKILLed, frozen
// (SIGSTOP) and removed independently while the gateway keeps serving.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../src/devstack/stack';
import type { FaultEnv } from './faultEnv';
import { startRoleProcess, type RoleName, type RoleProcess } from './roleProcesses';

export class Cluster {
  readonly processes = new Map<string, RoleProcess>();
  private readonly logDir: string;

  constructor(private readonly env: FaultEnv) {
    // Outside the engines' folder (removed at cleanup), so a run's logs survive for diagnosis; one
    // folder per run (suites may run concurrently), the five newest kept.
    const logs = join(repoRoot, '.tidemark', 'faults', 'logs');
    mkdirSync(logs, { recursive: true });
    const old = readdirSync(logs)
      .map((n) => ({ n, t: statSync(join(logs, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const o of old.slice(4)) rmSync(join(logs, o.n), { recursive: true, force: true });
    this.logDir = join(logs, env.runId);
  }

  get logs(): string {
    return this.logDir;
  }

  get gateway(): RoleProcess {
    return this.processes.get('gateway')!;
  }

  of(role: RoleName): RoleProcess[] {
    return [...this.processes.values()].filter((p) => p.roles.includes(role) && !p.exited());
  }

  async start(name: string, roles: RoleName[]): Promise<RoleProcess> {
    const p = await startRoleProcess({
      name,
      roles,
      env: this.env.childEnv(),
      logDir: this.logDir,
      pidDir: join(repoRoot, this.env.settings.stackDir, 'procs'),
    });
    this.processes.set(name, p);
    return p;
  }

  /** SIGKILL one process (no drain) and forget it. */
  async kill(name: string): Promise<void> {
    await this.processes.get(name)?.kill();
    this.processes.delete(name);
  }

  /** SIGTERM one process (drain) and forget it; fails if it did not drain (exit 0 within the grace period). */
  async remove(name: string): Promise<void> {
    const stopped = await this.processes.get(name)?.stop();
    this.processes.delete(name);
    if (stopped && !stopped.drained)
      throw new Error(`${name} did not drain on SIGTERM: ${JSON.stringify(stopped)}; log ${this.logDir}/${name}.log`);
  }

  freeze(name: string): void {
    process.kill(this.processes.get(name)!.pid, 'SIGSTOP');
  }

  thaw(name: string): void {
    process.kill(this.processes.get(name)!.pid, 'SIGCONT');
  }

  async stopAll(): Promise<void> {
    const all = [...this.processes.values()];
    for (const p of all) if (!p.exited()) process.kill(p.pid, 'SIGCONT');
    await Promise.all(all.map((p) => p.stop(15000)));
    this.processes.clear();
  }
}
