// The leak check after a test run that captured logs (logCapture.ts): every line of every file in the
// folder is searched (logLeaks.ts) for a JWT, the test JWT secret, the engine passwords of the test
// settings, URL credentials and unredacted personal or secret keys. It fails naming file, line and kind,
// never the value; and it fails when nothing was captured, so a broken capture cannot pass silently.
// Run by jest (globalTeardown of the int project) or alone: `npx tsx test/support/logCheck.ts <dir>`.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadSettings } from '../../src/config/settings';
import { scanLog, secretsOf, type Finding, type Secret } from './logLeaks';
import { TEST_JWT_SECRET } from './testSecret';

const SHOWN = 40;

export interface LogCheck {
  files: number;
  lines: number;
  /** JSON lines a Tidemark logger wrote: none means the capture itself is broken. */
  records: number;
  findings: Finding[];
}

/** The secrets a test run uses: the test JWT secret and those of the settings the suites start from. */
export function testRunSecrets(env: NodeJS.ProcessEnv = process.env): Secret[] {
  const settings = loadSettings({ ...env, TIDEMARK_ENV: 'test', LOG_LEVEL: 'silent' });
  return secretsOf(settings as unknown as Record<string, unknown>, { TEST_JWT_SECRET });
}

export function checkLogDir(dir: string, secrets: readonly Secret[]): LogCheck {
  const names = readdirSync(dir).filter((n) => n.endsWith('.log'));
  const check: LogCheck = { files: names.length, lines: 0, records: 0, findings: [] };
  for (const name of names) {
    const text = readFileSync(join(dir, name), 'utf8');
    for (const l of text.split('\n')) {
      if (l) check.lines++;
      if (l.startsWith('{"level":') && l.includes('"service":"tidemark"')) check.records++;
    }
    check.findings.push(...scanLog(name, text, secrets));
  }
  return check;
}

/** Throws when the folder holds no Tidemark log line or any line leaks; otherwise a one-line summary. */
export function assertLogsClean(dir: string, secrets: readonly Secret[] = testRunSecrets()): string {
  const c = checkLogDir(dir, secrets);
  if (c.records === 0) throw new Error(`log check: no Tidemark log line in ${dir} (${c.files} files): the log capture is broken`);
  if (c.findings.length) {
    const shown = c.findings.slice(0, SHOWN).map((f) => `  ${f.file}:${f.line}: ${f.what}`);
    const more = c.findings.length > SHOWN ? [`  ... and ${c.findings.length - SHOWN} more`] : [];
    throw new Error([`log check: ${c.findings.length} leaks in ${dir}`, ...shown, ...more].join('\n'));
  }
  return `log check: ${c.lines} lines (${c.records} Tidemark records) in ${c.files} files of ${dir}, no leak`;
}

/** Before a capturing run: the folder exists and holds no lines of an earlier run (only its *.log files go). */
export function clearLogDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const n of readdirSync(dir)) if (n.endsWith('.log')) rmSync(join(dir, n), { force: true });
}

if (require.main === module) {
  const dir = process.argv[2] ?? process.env.TEST_LOG_DIR;
  if (!dir) {
    console.error('usage: tsx test/support/logCheck.ts <dir> (or TEST_LOG_DIR)');
    process.exit(2);
  }
  try {
    console.log(assertLogsClean(dir));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
