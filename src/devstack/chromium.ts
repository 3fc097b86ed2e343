// Chromium for the console's browser test: Debian's `chromium` package, installed when absent like the
// engines (idempotent: a present binary is used as it is). Tests drive it with playwright-core, which
// never downloads a browser of its own.
import { existsSync } from 'node:fs';
import { aptInstall, run, which } from './system';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a headless Chromium on a machine without a network beyond loopback (see docs/console.md). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Returns the path of a working Chromium, installing Debian's package first when it is missing. */
export function ensureChromium(log: (l: string) => void = () => undefined): string {
  // fonts-liberation is only a Recommends of chromium: without it a minimal machine renders pages in a
  // fallback font (or boxes), and screenshots taken there would not show what a person sees.
  if (!existsSync(CHROMIUM_PATH) && !which('chromium')) aptInstall(['chromium', 'fonts-liberation'], log);
  const path = existsSync(CHROMIUM_PATH) ? CHROMIUM_PATH : which('chromium');
  if (!path) throw new Error('chromium is not installed and could not be installed: apt-get install -y chromium');
  log(run(path, ['--version']).trim());
  return path;
}
