// The reconciliation leases on the real PostgreSQL: a released lease is free for another process at
// once; a process releases only a lease it holds (another owner's, taken after its own expired, stays,
// and so do other leases of the same owner); releasing what is not held is a no-op.
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { acquireLease } from './sql/acquireLease';
import { releaseLease } from './sql/releaseLease';

jest.setTimeout(60000);

const HOUR = 3600_000;

describe('reconciliation leases', () => {
  let env: TestEnv;
  const owners = async () =>
    Object.fromEntries(
      (await env.resources.pg('reconciliation_leases').select('name', 'owner')).map((r: { name: string; owner: string }) => [
        r.name,
        r.owner,
      ]),
    );

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => env?.cleanup());

  it('frees a lease its owner gives back, and never one another process holds', async () => {
    const pg = env.resources.pg;
    expect(await acquireLease(pg, 'l-a', 'proc-1', HOUR)).toBe(true);
    expect(await acquireLease(pg, 'l-b', 'proc-1', HOUR)).toBe(true);
    // Held for an hour: another process cannot take it.
    expect(await acquireLease(pg, 'l-a', 'proc-2', HOUR)).toBe(false);

    // Not the owner: nothing is deleted.
    expect(await releaseLease(pg, 'l-a', 'proc-2')).toBe(false);
    expect(await owners()).toEqual({ 'l-a': 'proc-1', 'l-b': 'proc-1' });

    // The owner gives l-a back: only that lease goes, and another process takes it at once.
    expect(await releaseLease(pg, 'l-a', 'proc-1')).toBe(true);
    expect(await owners()).toEqual({ 'l-b': 'proc-1' });
    expect(await acquireLease(pg, 'l-a', 'proc-2', HOUR)).toBe(true);

    // proc-1, stopping late, releases again: proc-2's lease stays.
    expect(await releaseLease(pg, 'l-a', 'proc-1')).toBe(false);
    expect(await owners()).toEqual({ 'l-a': 'proc-2', 'l-b': 'proc-1' });
  });

  it('leaves a lease taken over after expiry to its new owner', async () => {
    const pg = env.resources.pg;
    expect(await acquireLease(pg, 'l-c', 'proc-1', 1)).toBe(true);
    // Expired (1 ms, database clock): another process takes it.
    await pg.raw(`UPDATE reconciliation_leases SET expires_at = now() - interval '1 second' WHERE name = 'l-c'`);
    expect(await acquireLease(pg, 'l-c', 'proc-2', HOUR)).toBe(true);
    expect(await releaseLease(pg, 'l-c', 'proc-1')).toBe(false);
    expect((await owners())['l-c']).toBe('proc-2');
  });
});
