// The console's browser test harness: builds the console exactly as `npm run build` does (a clean
// clone has no dist/), and drives Debian's Chromium with playwright-core (never a downloaded browser)
// in a fresh profile. Screenshots go to CONSOLE_SCREENSHOTS_DIR (docs/console when refreshing the
// documentation) or to dist/console-screenshots.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../src/devstack/chromium';
import { repoRoot } from '../../src/devstack/stack';
import { consoleDir } from '../../src/graphql/console';

/** Runs the console build (vite, with its bundle budget); returns the budget line it printed. */
export function buildConsole(): string {
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'src/console/vite.config.mts'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (r.status !== 0) throw new Error(`console build failed:\n${r.stdout}\n${r.stderr}`);
  if (!existsSync(join(consoleDir, 'index.html'))) throw new Error(`console build wrote no ${consoleDir}/index.html`);
  return r.stdout.split('\n').find((l) => l.startsWith('console bundle:')) ?? '';
}

export interface ConsoleBrowser {
  page: Page;
  context: BrowserContext;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openConsoleBrowser(): Promise<ConsoleBrowser> {
  const executablePath = ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), 'tidemark-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1366, height: 860 },
    deviceScaleFactor: 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const shots = resolve(repoRoot, process.env.CONSOLE_SCREENSHOTS_DIR ?? join('dist', 'console-screenshots'));
  mkdirSync(shots, { recursive: true });
  return {
    page,
    context,
    screenshot: async (name) => void (await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, animations: 'disabled' })),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
