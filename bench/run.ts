// `npm run bench [-- --quick] [-- --only=3,4] [-- --profile]`: runs every benchmark row side by side
// with its ceiling on the local stack, prints one table and writes bench/results/<date>.json.
// Each row gets a fresh private environment (unique databases and topics, dropped afterwards); the
// gateway and the relay/projector run as child processes, the load generator here.
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { profilesIn, summarizeCpuProfile, type ProfileSummary } from './lib/cpuProfile';
import { settleMachine, type Settled } from './lib/cpuTime';
import { loadAverage, machineInfo } from './lib/machine';
import { repoRoot } from './lib/processes';
import type { BenchContext, BenchRow, RowResult } from './lib/row';
import { renderMarkdown, renderTable } from './lib/table';
import { benchRows } from './rows';

interface Args {
  quick: boolean;
  only?: Set<number>;
  profile: boolean;
  out?: string;
}

function parseArgs(argv: string[]): Args {
  // `npm run bench --quick` (without `--`) reaches us as npm_config_quick, not as an argument.
  const a: Args = { quick: process.env.npm_config_quick === 'true', profile: process.env.npm_config_profile === 'true' };
  for (const arg of argv) {
    if (arg === '--quick') a.quick = true;
    else if (arg === '--profile') a.profile = true;
    else if (arg.startsWith('--only=')) a.only = new Set(arg.slice(7).split(',').map(Number));
    else if (arg.startsWith('--out=')) a.out = arg.slice(6);
    else throw new Error(`unknown argument ${arg} (use --quick, --only=1,3, --profile, --out=file.json)`);
  }
  return a;
}

async function runRow(row: BenchRow, ctx: BenchContext): Promise<RowResult> {
  const t0 = performance.now();
  ctx.log(`row ${row.id}: ${row.name}`);
  try {
    const r = await row.run(ctx);
    return { ...r, durationMs: Math.round(performance.now() - t0) };
  } catch (err) {
    return {
      id: row.id,
      name: row.name,
      status: 'error',
      unit: '-',
      target: '-',
      details: {},
      note: `error: ${err instanceof Error ? err.message.slice(0, 300) : String(err)}`,
      durationMs: Math.round(performance.now() - t0),
    };
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = new Date();
  const stamp = started
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  // Profiles are large and machine-specific: kept locally (git-ignored), summarised in the JSON.
  const profileDir = args.profile ? join(repoRoot, 'bench', 'results', 'profiles', stamp) : undefined;
  const machine = await machineInfo();
  const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(0)}s] ${line}\n`);
  const t0 = performance.now();
  log(`${args.quick ? 'quick' : 'full'} run on ${machine.cpus} cpus, load ${machine.loadAverage.join(' ')}`);
  const settle = async () => {
    const s = await settleMachine({ maxWaitMs: args.quick ? 10_000 : 30_000 });
    if (s.busy > 0.25) log(`machine still ${Math.round(s.busy * 100)}% busy after ${Math.round(s.waitedMs / 1000)}s; measuring anyway`);
  };
  const ctx: BenchContext = { quick: args.quick, profileDir, log, settle };
  const results: RowResult[] = [];
  const loadPerRow: Record<number, number[]> = {};
  const settlePerRow: Record<number, Settled> = {};
  for (const row of benchRows) {
    if (args.only && !args.only.has(row.id)) continue;
    const settled = await settleMachine({ maxWaitMs: args.quick ? 20_000 : 60_000 });
    settlePerRow[row.id] = settled;
    loadPerRow[row.id] = loadAverage();
    const r = await runRow(row, ctx);
    results.push(r);
    if (r.id === 1 && r.status === 'ok' && r.ours) ctx.writeCapacityPerSec = r.ours;
    log(
      `row ${r.id} ${r.status} in ${((r.durationMs ?? 0) / 1000).toFixed(0)}s${r.ratio !== undefined ? ` ratio ${r.ratio}` : ''}${r.note ? ` (${r.note.slice(0, 200)})` : ''}`,
    );
  }
  let profiles: ProfileSummary[] = [];
  if (profileDir) {
    // Profiles of every child; the tsx loader thread writes an (idle) profile of its own, left out.
    profiles = profilesIn(profileDir)
      .map((f) => summarizeCpuProfile(f))
      .filter((p) => (p.byArea.find((a) => a.area === '(idle)')?.share ?? 0) < 95);
  }
  const report = {
    startedAt: started.toISOString(),
    mode: args.quick ? 'quick' : 'full',
    durationSec: Math.round((performance.now() - t0) / 1000),
    machine: { ...machine, loadAverageAtEnd: loadAverage(), loadAveragePerRow: loadPerRow, settlePerRow },
    rows: results,
    profiles,
  };
  const out = args.out ?? join(repoRoot, 'bench', 'results', `${stamp.slice(0, 10)}${args.quick ? '-quick' : ''}.json`);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(out.replace(/\.json$/, '.md'), `${renderMarkdown(results)}\n`);
  process.stdout.write(
    `\nTidemark benchmarks (${report.mode}, ${machine.cpus} cpus, ${machine.memoryGiB} GiB, load at start ${machine.loadAverage.join(' ')})\n\n`,
  );
  process.stdout.write(`${renderTable(results)}\n\nresults: ${out}\n`);
  // Open handles (pools of finished rows) must not keep the run alive.
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
