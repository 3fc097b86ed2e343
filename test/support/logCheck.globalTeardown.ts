// jest globalTeardown of the int project: a capturing run fails when its logs leak (logCheck.ts).
import { assertLogsClean } from './logCheck';
import { logCaptureDir } from './logCapture';

export default function logCheckTeardown(): void {
  const dir = logCaptureDir();
  if (dir) console.log(`\n${assertLogsClean(dir)}`);
}
