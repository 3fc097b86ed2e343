// How a failed read leaves the store: a stop at the server's bounds is READ_TOO_EXPENSIVE on every
// release, including 18.16, whose error text carries no error name for the client to parse a code from
// (its memory stop came out as INTERNAL and its time stop, "Timeout exceeded", as a retriable
// STORE_UNAVAILABLE). The end-to-end proof is test/security/readBounds.e2e.spec.ts.
import { ClickHouseError } from '@clickhouse/client';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { fromClickHouseReads } from './readModelStore';

const failingWith = (err: unknown) =>
  fromClickHouseReads({ query: () => Promise.reject(err) } as unknown as ClickHouseClient, {
    bounds: { maxExecutionSeconds: 1, maxMemoryBytes: 10_000_000 },
  });

const outcome = (err: unknown) =>
  failingWith(err)
    .select('q', 'SELECT 1')
    .then(
      () => 'answered',
      (e: { code: string; retriable: boolean; message: string }) => ({ code: e.code, retriable: e.retriable, message: e.message }),
    );

const TOO_EXPENSIVE = {
  code: 'READ_TOO_EXPENSIVE',
  retriable: false,
  message: 'the read exceeded its time or memory bound: narrow the filter',
};

describe('fromClickHouseReads errors', () => {
  it.each([
    [
      '18.16 memory',
      'Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded: would use 10.02 MiB, e.what() = DB::Exception',
    ],
    [
      '18.16 time',
      'Code: 159, e.displayText() = DB::Exception: Timeout exceeded: elapsed 1.004 seconds, maximum: 1, e.what() = DB::Exception',
    ],
  ])('%s: READ_TOO_EXPENSIVE from the code at the start of the text', async (_release, text) => {
    expect(await outcome(new Error(text))).toEqual(TOO_EXPENSIVE);
  });

  it('a current release: READ_TOO_EXPENSIVE from the code the client parsed', async () => {
    expect(await outcome(new ClickHouseError({ message: 'Memory limit exceeded', code: '241', type: 'MEMORY_LIMIT_EXCEEDED' }))).toEqual(
      TOO_EXPENSIVE,
    );
  });

  it('any other server error: INTERNAL, with none of its text', async () => {
    const other = await outcome(new Error("Code: 60, e.displayText() = DB::Exception: Table t.x doesn't exist., e.what() = DB::Exception"));
    expect(other).toEqual({ code: 'INTERNAL', retriable: false, message: 'read model query failed' });
  });
});
