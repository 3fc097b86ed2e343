// A build-time budget: the console's JavaScript and CSS, gzipped as a browser would receive them, must
// stay under maxGzipKb (GraphiQL is not part of the console, so it does not count). Over budget, the
// build fails naming the largest files; under it, the build prints the figure.
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export interface BudgetReport {
  totalGzipBytes: number;
  files: { name: string; gzipBytes: number }[];
}

export function measure(files: Record<string, string | Uint8Array>): BudgetReport {
  const measured = Object.entries(files)
    .filter(([name]) => /\.(js|css)$/.test(name))
    .map(([name, content]) => ({
      name,
      gzipBytes: gzipSync(typeof content === 'string' ? Buffer.from(content) : content, { level: 9 }).length,
    }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { totalGzipBytes: measured.reduce((n, f) => n + f.gzipBytes, 0), files: measured };
}

export function bundleBudget(o: { maxGzipKb: number }): Plugin {
  return {
    name: 'tidemark-bundle-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files: Record<string, string | Uint8Array> = {};
      for (const [name, out] of Object.entries(bundle)) files[name] = out.type === 'chunk' ? out.code : out.source;
      const r = measure(files);
      const kb = (n: number) => (n / 1024).toFixed(1);
      const each = r.files.map((f) => `${f.name} ${kb(f.gzipBytes)} KB`).join(', ');
      const summary = `console bundle: ${kb(r.totalGzipBytes)} KB gzipped (budget ${o.maxGzipKb} KB): ${each}`;
      if (r.totalGzipBytes > o.maxGzipKb * 1024) this.error(`over budget: ${summary}`);
      process.stdout.write(`${summary}\n`);
    },
  };
}
