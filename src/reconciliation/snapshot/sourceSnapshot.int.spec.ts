// The source snapshot on the real engines: once opened, every read through it (states, counts,
// buckets, revision) sees each aggregate at the version it had then, on every MariaDB shard and in
// PostgreSQL, while corrections, new results, a deletion and new orders commit beside it; reads
// outside it see them. This is what lets a run judge a scope that is being edited.
import { combineBuckets } from '../../domains/contract/canonical';
import { DELETIONS, RESULTS, rowOf } from '../../domains/fitness/store/rows';
import { fitnessStates, seedSource } from '../../../test/support/reconciliationSeed';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessSource } from '../../domains/fitness/reconciliation/fitnessSource';
import { ordersSource } from '../../domains/orders/reconciliation/ordersSource';
import { campaignScope } from '../../domains/fitness/reconciliation/campaignScope';
import { orderWindowScope } from '../../domains/orders/reconciliation/windowScope';

jest.setTimeout(90000);

const versions = (xs: { id: string; version: number; isDeleted: boolean }[]) =>
  Object.fromEntries(xs.map((x) => [x.id, `${x.version}${x.isDeleted ? 'd' : ''}`]));

describe('source snapshots', () => {
  let env: TestEnv;
  const longAgo = new Date(Date.now() - 3600_000);
  const states = fitnessStates({ detectId: 32001, count: 8, firstSequence: 1, updatedAt: longAgo }, 2);
  const scope = campaignScope(32001);

  beforeAll(async () => {
    env = await createTestEnv();
    await seedSource(env.resources, states);
  });
  afterAll(async () => env?.cleanup());

  it('keeps every shard of a campaign at its versions while corrections, a new result and a deletion commit', async () => {
    const source = fitnessSource(env.resources.mysql);
    const snap = await source.openSnapshot(scope);
    const at = { states: versions(await snap.states('CONTENT', {})), counts: await snap.counts() };
    const buckets = combineBuckets(await snap.buckets('CONTENT', 8));
    expect(Object.keys(at.states)).toHaveLength(8);

    // Beside the snapshot: a correction on each shard, a new result on shard 1, a deletion on shard 0.
    const [a, b, c] = [states[0]!, states[1]!, states[2]!];
    for (const s of [a, b]) {
      const db = env.resources.mysql.shards[s.shard]!.db;
      await db(RESULTS).where({ data_id: s.dataId }).update({ version: 2, result: '9.900', updated_at: new Date() });
    }
    const added = fitnessStates({ detectId: 32001, count: 2, firstSequence: 90, updatedAt: new Date() }, 2)[1]!;
    await env.resources.mysql.shards[added.shard]!.db(RESULTS).insert(rowOf(added));
    const shard0 = env.resources.mysql.shards[c.shard]!.db;
    await shard0.transaction(async (trx) => {
      await trx(RESULTS).where({ data_id: c.dataId }).delete();
      await trx(DELETIONS).insert({ ...rowOf({ ...c, version: 2 }), deleted_at: new Date() });
    });

    expect(versions(await snap.states('CONTENT', {}))).toEqual(at.states);
    expect(await snap.counts()).toEqual(at.counts);
    expect(combineBuckets(await snap.buckets('CONTENT', 8))).toEqual(buckets);
    expect(versions(await snap.states('IDS', { ids: [String(a.dataId), String(added.dataId)] }))).toEqual({ [a.dataId]: '1' });

    // Outside the snapshot, the changes are there.
    const now = versions(await source.states(scope, 'CONTENT', {}));
    expect(now).toMatchObject({ [a.dataId]: '2', [b.dataId]: '2', [c.dataId]: '2d', [added.dataId]: '1' });
    expect((await source.revision(scope)).versionSum).toBe(snap.revision.versionSum + 4);
    await snap.close();
    await snap.close();
  });

  it('keeps an order window without the orders placed after it opened', async () => {
    const pg = env.resources.pg;
    const from = new Date(Date.UTC(2026, 0, 7, 10));
    const order = (n: number) => ({
      order_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      customer_id: 'c',
      currency: 'EUR',
      items: JSON.stringify([{ sku: 'A', quantity: 1, unitPrice: '1.0000' }]),
      total: '1.0000',
      item_count: 1,
      idempotency_key: `snap-${n}`,
      request_hash: '0'.repeat(64),
      created_at: new Date(from.getTime() + n * 1000),
    });
    await pg('orders').insert([order(1), order(2)]);
    const source = ordersSource(pg);
    const window = orderWindowScope(from, new Date(from.getTime() + 3600_000));
    const snap = await source.openSnapshot(window);
    await pg('orders').insert([order(3)]);
    expect((await snap.states('CONTENT', {})).map((s) => s.id).sort()).toEqual([order(1).order_id, order(2).order_id]);
    expect(snap.revision.aggregates).toBe(2);
    expect([...(await snap.counts()).values()]).toEqual([2]);
    expect((await source.revision(window)).aggregates).toBe(3);
    await snap.close();
  });
});
