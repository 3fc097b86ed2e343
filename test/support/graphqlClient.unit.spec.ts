// A dropped connection is told by name: fetch's TypeError comes from Node's realm, not the test's.
import { isFetchFailure } from './graphqlClient';

describe('a fetch that failed at the transport', () => {
  it('is recognised although it is no instance of the test realm TypeError', async () => {
    const err = await fetch('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect(err instanceof TypeError).toBe(false);
    expect(isFetchFailure(err)).toBe(true);
  });

  it('is not any other error', () => {
    expect(isFetchFailure(new TypeError('x is not a function'))).toBe(false);
    expect(isFetchFailure(new Error('fetch failed'))).toBe(false);
    expect(isFetchFailure('fetch failed')).toBe(false);
    expect(isFetchFailure(null)).toBe(false);
  });
});
