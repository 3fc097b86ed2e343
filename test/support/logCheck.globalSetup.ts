// jest globalSetup of the int project: a capturing run starts from an empty log folder (logCheck.ts).
import { clearLogDir } from './logCheck';
import { logCaptureDir } from './logCapture';

export default function logCheckSetup(): void {
  const dir = logCaptureDir();
  if (dir) clearLogDir(dir);
}
