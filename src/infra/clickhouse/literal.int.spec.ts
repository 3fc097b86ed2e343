// The formatter against the real engine: every hostile string survives a round trip unchanged.
import { testSettings } from '../../../test/support/testEnv';
import { fromClickHouse } from './fromClickHouse';
import { str } from './literal';
import { hostileStrings } from '../../../test/support/hostile';

describe('ClickHouse literal formatter on the real server', () => {
  const ch = fromClickHouse(testSettings(), { database: null });
  afterAll(() => ch.close());

  it('round-trips every hostile string exactly', async () => {
    const sql = `SELECT ${hostileStrings.map((s, i) => `${str(s)} AS s${i}`).join(', ')}`;
    const rs = await ch.query({ query: sql, format: 'JSONEachRow' });
    const [row] = await rs.json<Record<string, string>>();
    hostileStrings.forEach((s, i) => expect(row![`s${i}`]).toBe(s));
  });
});
