// The one table `npm run bench` prints: a row per stage, our figure, the ceiling, the ratio and
// whether the target holds (a peer row, which compares with another tool and sets no target, shows -).
import type { RowResult } from './row';

function fmt(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '-';
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(Math.abs(n) >= 10 ? 1 : 2);
}

export function renderTable(rows: RowResult[]): string {
  const head = ['#', 'stage', 'unit', 'ours', 'ceiling', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    String(r.id),
    r.name,
    r.unit,
    r.status === 'ok' ? fmt(r.ours) : r.status === 'n/a' ? 'n/a (not built)' : 'error',
    r.status === 'ok' ? fmt(r.ceiling) : '-',
    r.status === 'ok' && r.ratio !== undefined ? r.ratio.toFixed(2) : '-',
    r.target,
    r.status === 'ok' && r.met !== undefined ? (r.met ? 'yes' : 'NO') : '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)];
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.id}. ${r.note}`);
  return [...out, ...(notes.length ? ['', 'notes:', ...notes] : [])].join('\n');
}

/** The same table as Markdown, for docs/benchmarks.md. */
export function renderMarkdown(rows: RowResult[]): string {
  const head = '| # | stage | unit | ours | ceiling | ratio | target | met |\n|---|---|---|---|---|---|---|---|';
  const body = rows.map((r) => {
    const ours = r.status === 'ok' ? fmt(r.ours) : r.status === 'n/a' ? 'n/a (not built)' : 'error';
    const ceiling = r.status === 'ok' ? fmt(r.ceiling) : '-';
    const ratio = r.status === 'ok' && r.ratio !== undefined ? r.ratio.toFixed(2) : '-';
    return `| ${r.id} | ${r.name} | ${r.unit} | ${ours} | ${ceiling} | ${ratio} | ${r.target} | ${r.status === 'ok' && r.met !== undefined ? (r.met ? 'yes' : '**no**') : '-'} |`;
  });
  return [head, ...body].join('\n');
}
