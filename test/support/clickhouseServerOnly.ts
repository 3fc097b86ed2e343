// Kept apart from testEnv.ts, which benchmarks import outside jest (where `it` does not exist).
import { loadSettings } from '../../src/config/settings';

/**
 * For the few tests that cut the network between Tidemark and a ClickHouse server (a TCP proxy): an
 * embedded ClickHouse lives in the test process and has no connection to cut, so they are skipped there.
 */
export const itWithClickHouseServer: jest.It =
  loadSettings({ TIDEMARK_ENV: 'test', ...process.env }).clickhouseEngine === 'server' ? it : it.skip;
