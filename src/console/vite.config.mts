// Builds the console (npm run build) into dist/console, served by the gateway at /console. Everything
// is bundled from node_modules (no CDN): the page works on a machine without internet. The build fails
// when the gzipped JavaScript and CSS exceed the budget (bundleBudget.mts).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { bundleBudget } from './bundleBudget.mts';

const root = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root,
  base: '/console/',
  logLevel: 'warn',
  publicDir: false,
  build: {
    outDir: resolve(root, '../../dist/console'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 1024,
  },
  plugins: [bundleBudget({ maxGzipKb: 300 })],
});
