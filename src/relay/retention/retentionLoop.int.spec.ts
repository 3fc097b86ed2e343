// The retention loop itself (retentionCleanup.ts startRetentionCleanup) on real PostgreSQL, on its own
// schedule: the test never calls a batch function. Expired rows disappear batch by batch (seen from the
// table between the batches), a pass that fails in the engine is logged and the loop goes on with the
// next one, and stop() waits for the batch in flight and ends the loop.
import { messageCollectingLogger } from '../../../test/support/logCapture';
import { waitFor } from '../../shared/lifecycle';
import { deletePublishedBatch } from '../../publication/kafkaFirst/sql/deletePublished';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { startRetentionCleanup, type RetentionTask } from './retentionCleanup';
import type { Stoppable } from '../../shared/lifecycle';

jest.setTimeout(90000);

const HOUR = 3600_000;

function publishedRow(name: string, ageHours: number) {
  const at = new Date(Date.now() - ageHours * HOUR);
  return {
    event_id: name,
    domain: 'orders',
    aggregate_id: name,
    version: 1,
    topic: 't',
    message_key: name,
    message_value: '{}',
    headers: '{}',
    status: 'PUBLISHED',
    source: 'DIRECT_FALLBACK',
    direct_attempts: 3,
    relay_attempts: 0,
    replay_count: 0,
    next_attempt_at: at,
    created_at: at,
    published_at: at,
  };
}

describe('the retention loop on its own schedule (PostgreSQL)', () => {
  let env: TestEnv;
  let loop: Stoppable | undefined;
  const { logger, messages: warnings } = messageCollectingLogger('warn');

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await loop?.stop();
    await env?.cleanup();
  });

  const db = () => env.resources.pg;
  const left = async () =>
    ((await db()('event_publications').orderBy('event_id').pluck('event_id')) as string[]).filter((id) => id.startsWith('old-'));

  it('deletes expired rows batch by batch, goes on after a failed pass, and stop() drains the batch in flight', async () => {
    await db()('event_publications').insert([...[1, 2, 3, 4, 5, 6, 7].map((n) => publishedRow(`old-${n}`, 100)), publishedRow('young', 1)]);
    // What each batch deleted and the expired rows the table still held right after it.
    const batches: { deleted: number; leftAfter: number }[] = [];
    const deleted: number[] = [];
    const gate: { hold?: Promise<void> } = {};
    let holding = false;
    const task: RetentionTask = {
      table: 'event_publications',
      store: 'postgres',
      async deleteBatch(n) {
        if (gate.hold) {
          holding = true;
          await gate.hold;
        }
        const k = await deletePublishedBatch(db(), 72 * HOUR, n);
        batches.push({ deleted: k, leftAfter: (await left()).length });
        return k;
      },
    };
    loop = startRetentionCleanup({ tasks: [task], intervalMs: 200, batchSize: 2, logger, onDeleted: (_t, n) => deleted.push(n) });

    // One pass, four batches of at most two: 7 -> 5 -> 3 -> 1 -> 0, the young row kept.
    await waitFor(() => deleted.length >= 1, { timeoutMs: 30000, what: 'the first pass' });
    expect(batches.slice(0, 4)).toEqual([
      { deleted: 2, leftAfter: 5 },
      { deleted: 2, leftAfter: 3 },
      { deleted: 2, leftAfter: 1 },
      { deleted: 1, leftAfter: 0 },
    ]);
    expect(deleted[0]).toBe(7);
    expect(await db()('event_publications').pluck('event_id')).toEqual(['young']);

    // The table goes away under the loop: its passes fail in the engine, are logged, and the loop goes on.
    await db().raw('ALTER TABLE event_publications RENAME TO event_publications_away');
    await waitFor(() => warnings.filter((w) => w === 'retention cleanup failed; will retry').length >= 2, {
      timeoutMs: 30000,
      what: 'two failed passes',
    });
    await db().raw('ALTER TABLE event_publications_away RENAME TO event_publications');
    await db()('event_publications').insert([publishedRow('old-8', 100), publishedRow('old-9', 100), publishedRow('old-10', 100)]);
    await waitFor(async () => (await left()).length === 0, { timeoutMs: 30000, what: 'a later pass deleting the new rows' });
    expect(deleted.slice(1)).toEqual([3]);

    // stop() while a batch waits to run: it resolves only after that batch ran, and no batch follows.
    await db()('event_publications').insert([publishedRow('old-11', 100), publishedRow('old-12', 100), publishedRow('old-13', 100)]);
    let release!: () => void;
    gate.hold = new Promise((r) => (release = r));
    await waitFor(() => holding, { timeoutMs: 30000, what: 'a batch in flight' });
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    const before = batches.length;
    release();
    await stopping;
    // The batch in flight finished (two rows), and the loop stopped before the batch for the third.
    expect(batches.length).toBe(before + 1);
    expect(batches[before]).toEqual({ deleted: 2, leftAfter: 1 });
    expect(await left()).toHaveLength(1);
    loop = undefined;
  });
});
