// The ClickHouse client on the engine in force (the server, or the embedded ClickHouse 26 under
// npm run test:engines): 64-bit integers arrive exact on every release, and an embedded data
// directory held by another process is refused with what to do.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../config/paths';
import { testSettings } from '../../../test/support/testEnv';
import { fromClickHouse } from './fromClickHouse';

describe('ClickHouse client', () => {
  const settings = testSettings();
  const ch = fromClickHouse(settings, { database: null });
  afterAll(() => ch.close());

  it('reads UInt64 and Int64 values exactly (current releases print them as bare JSON numbers by default)', async () => {
    const rs = await ch.query({
      query:
        "SELECT toUInt64('18446744073709551615') AS u, toInt64('-9223372036854775807') AS i, groupBitXor(toUInt64(9007199254740993)) AS x",
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ u: '18446744073709551615', i: '-9223372036854775807', x: '9007199254740993' }]);
  });

  const embedded = settings.clickhouseEngine === 'embedded' ? it : it.skip;
  embedded('refuses a second process on the same embedded data directory, saying what to do', async () => {
    await ch.ping(); // this process holds the directory
    const script = `require('${join(repoRoot, 'src/infra/clickhouse/fromClickHouse.ts')}').fromClickHouse(JSON.parse(process.env.S))`;
    const env = { ...process.env, S: JSON.stringify(settings) };
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { env, encoding: 'utf8' });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toMatch(/another process has it open.*CLICKHOUSE_EMBEDDED_PATH.*CLICKHOUSE_ENGINE=server/s);
  });
});
