// Log capture of a test run (issue #29): with TEST_LOG_DIR set (npm test sets it), every logger the
// suites create writes its JSON lines into a file of that folder, one per suite and jest process, and
// the role processes a suite spawns are captured there too. After jest, logCheck.ts searches every line
// for secrets and personal data. Without TEST_LOG_DIR the suites log nothing (TEST_LOG_LEVEL aside).
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { repoRoot } from '../../src/config/paths';
import { createLogger, silentLogger, type Logger } from '../../src/shared/logger';

/** The capture folder (absolute), or undefined when this run does not capture logs. */
export function logCaptureDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_LOG_DIR ? resolve(repoRoot, env.TEST_LOG_DIR) : undefined;
}

/**
 * The level of the suites' loggers: TEST_LOG_LEVEL, else debug when capturing (the check should see
 * every line Tidemark can write; measured no slower than info), else silent.
 */
export function testLogLevel(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEST_LOG_LEVEL ?? (logCaptureDir(env) ? 'debug' : 'silent');
}

/** A logger for components a suite wires itself (testRoleDeps, relays, projectors). */
export function testLogger(): Logger {
  const level = testLogLevel();
  return level === 'silent' ? silentLogger : createLogger(level);
}

/** The running suite's path as a file name part (test/e2e/orders.e2e.spec.ts: test-e2e-orders.e2e.spec.ts). */
export function suiteName(): string {
  const testPath = (globalThis as { expect?: { getState(): { testPath?: string } } }).expect?.getState().testPath;
  return testPath ? relative(repoRoot, testPath).replace(/[\\/]/g, '-') : 'no-suite';
}

/** The capture file for `part` of the running suite in this process, or undefined when not capturing. */
export function captureFile(part: string): string | undefined {
  const dir = logCaptureDir();
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  return join(dir, `${suiteName()}.${part}.${process.pid}.log`);
}

/**
 * A file descriptor to give a child process as its stdout (its logs), or undefined when not capturing.
 * The caller closes its own copy once the child is spawned.
 */
export function captureFd(part: string): number | undefined {
  const file = captureFile(part);
  return file === undefined ? undefined : openSync(file, 'a');
}

/** Writes output collected from a child (its stdout and stderr) into the capture folder. */
export function captureText(part: string, text: string): void {
  const file = captureFile(part);
  if (file !== undefined) writeFileSync(file, text, { flag: 'a' });
}

/** A product logger at `level` whose lines' messages are collected in order (what a loop warned, say). */
export function messageCollectingLogger(level: string): { logger: Logger; messages: string[] } {
  const messages: string[] = [];
  return { logger: createLogger(level, {}, { write: (line: string) => void messages.push(String(JSON.parse(line).msg)) }), messages };
}
