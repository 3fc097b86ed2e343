// jest setupFilesAfterEnv of the int project: when the run captures logs (logCapture.ts), every logger
// this suite's code creates without a destination (startTidemark's among them) writes to the suite's
// file. Synchronous writes: a line logged while a suite stops is on disk before jest moves on.
import pino from 'pino';
import { setDefaultLogDestination } from '../../src/shared/logger';
import { captureFile } from './logCapture';

const file = captureFile('in-process');
if (file !== undefined) setDefaultLogDestination(pino.destination({ dest: file, sync: true }));
