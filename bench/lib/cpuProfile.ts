// Summarises a V8 .cpuprofile (node --cpu-prof) into the frames that used the most self time, and
// the same time grouped by where the code lives (our src/, a node_modules package, node internals,
// idle/GC), which is what the notes need to name a bottleneck.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  topFrames: { frame: string; selfMs: number; share: number }[];
  byArea: { area: string; selfMs: number; share: number }[];
}

function area(url: string, fn: string): string {
  if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)') return fn;
  const nm = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1]!;
  if (url.includes('/src/')) return `src/${url.split('/src/')[1]!.split('/')[0]}`;
  if (url.startsWith('node:') || url === '') return 'node internals';
  return 'other';
}

function short(url: string): string {
  const nm = url.match(/node_modules\/(.*)$/);
  if (nm) return nm[1]!;
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  return url || '(native)';
}

export function summarizeCpuProfile(file: string, top = 15): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  const frames = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    total += us;
    const { functionName, url, lineNumber } = n.callFrame;
    const key = `${functionName || '(anonymous)'} ${short(url)}${url ? `:${lineNumber + 1}` : ''}`;
    frames.set(key, (frames.get(key) ?? 0) + us);
    const a = area(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  const rank = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => ({ key: k, selfMs: Math.round(us / 100) / 10, share: Math.round((us / Math.max(total, 1)) * 1000) / 10 }));
  return {
    file,
    totalMs: Math.round(total / 1000),
    topFrames: rank(frames, top).map((r) => ({ frame: r.key, selfMs: r.selfMs, share: r.share })),
    byArea: rank(areas, 12).map((r) => ({ area: r.key, selfMs: r.selfMs, share: r.share })),
  };
}

/** Every .cpuprofile under `dir` (one folder per profiled child, one file per thread). */
export function profilesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? profilesIn(join(dir, e.name)) : e.name.endsWith('.cpuprofile') ? [join(dir, e.name)] : [],
    );
  } catch {
    return [];
  }
}
