// The outbox maintenance loop itself (maintenance.ts startOutboxMaintenance) on MariaDB's outbox, on its
// own schedule: the test never calls cleanupSent or a batch function. SENT rows past retention go batch
// by batch (each DELETE statement's rows, recorded by a trigger with the statement's start time), the
// gauges follow the table, a pass that fails in the engine is logged and the loop goes on, and stop()
// waits for the batch in flight (held by a row lock) and ends both timers.
import { appendFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { createLogger } from '../../shared/logger';
import { waitFor } from '../../shared/lifecycle';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { captureFile } from '../../../test/support/logCapture';
import { useRelayHarness } from '../../../test/support/relayHarness';
import { startOutboxMaintenance } from './maintenance';
import type { Stoppable } from '../../shared/lifecycle';

jest.setTimeout(120000);

describe('the outbox maintenance loop on its own schedule (MariaDB)', () => {
  let loop: Stoppable | undefined;
  let lock: Knex.Transaction | undefined;
  // Declared before the harness's: jest runs them in this order, and dropping the test databases would
  // wait for a row lock a failed run left behind.
  afterAll(async () => {
    // A failed run must not leave the row lock (and the cleanup waiting on it) behind.
    await lock?.rollback();
    await loop?.stop();
  });
  const h = useRelayHarness();
  const warnings: string[] = [];
  // The loop's warnings are read by the test and, in a capturing run, also go where the leak check reads.
  const capture = captureFile('maintenance');
  const logger = createLogger(
    'warn',
    {},
    {
      write(line: string) {
        warnings.push(String(JSON.parse(line).msg));
        if (capture) appendFileSync(capture, line);
      },
    },
  );

  const db = () => h.mysql.db;
  const statusOf = async () => (await db()('outbox_events').orderBy('id').select('id', 'status')) as { id: number; status: string }[];
  // Rows each DELETE statement removed: NOW(6) inside a trigger is the statement's start, so one value per batch.
  const batches = async () =>
    ((await db()('outbox_deleted_log').select('at').count({ n: '*' }).groupBy('at').orderBy('at')) as { n: number | string }[]).map((r) =>
      Number(r.n),
    );
  const gauge = async (status: string) =>
    (await h.metrics.events.get()).values.find((v) => v.labels.store === 'mysql' && v.labels.status === status)?.value;
  const seed = async (sent: number, recent = 0) => {
    const last = Math.max(0, ...(await statusOf()).map((r) => r.id));
    await seedOutbox(db(), h.topic, sent + recent);
    const ids = (await statusOf()).filter((r) => r.id > last).map((r) => r.id);
    await db()('outbox_events')
      .whereIn('id', ids.slice(0, sent))
      .update({ status: 'SENT', sent_at: db().raw('DATE_SUB(NOW(3), INTERVAL 2 HOUR)') });
    return ids;
  };

  it('deletes expired SENT rows batch by batch, refreshes the gauges, goes on after failed passes, and stop() drains', async () => {
    await db().raw('CREATE TABLE outbox_deleted_log (id BIGINT NOT NULL, at DATETIME(6) NOT NULL)');
    await db().raw(
      'CREATE TRIGGER outbox_deleted_log AFTER DELETE ON outbox_events FOR EACH ROW INSERT INTO outbox_deleted_log VALUES (OLD.id, NOW(6))',
    );
    // Seven expired SENT rows, one recent SENT row, two NEW rows.
    const ids = await seed(7, 3);
    await db()('outbox_events').where('id', ids[7]).update({ status: 'SENT', sent_at: db().fn.now() });

    loop = startOutboxMaintenance({
      store: h.mysql,
      metrics: h.metrics,
      logger,
      retentionMs: 3600_000,
      cleanupIntervalMs: 200,
      cleanupBatchSize: 2,
      statsIntervalMs: 200,
    });

    // One pass, four statements of at most two rows: 7 -> 5 -> 3 -> 1 -> 0; the recent SENT and the NEW rows kept.
    await waitFor(async () => (await h.total(h.metrics.cleanedUp)) >= 7, { timeoutMs: 30000, what: 'the first cleanup pass' });
    expect(await batches()).toEqual([2, 2, 2, 1]);
    expect((await statusOf()).map((r) => r.status)).toEqual(['SENT', 'NEW', 'NEW']);
    // The gauges come from the loop's own refreshes: the two NEW rows, then a third one appended later.
    await waitFor(async () => (await gauge('NEW')) === 2, { timeoutMs: 30000, what: 'the gauges counting two NEW rows' });
    await seedOutbox(db(), h.topic, 1);
    await waitFor(async () => (await gauge('NEW')) === 3, { timeoutMs: 30000, what: 'the gauges following the table' });

    // The table goes away under the loop: both timers' passes fail in the engine, are logged, and go on.
    await db().raw('RENAME TABLE outbox_events TO outbox_events_away');
    await waitFor(() => warnings.filter((w) => w === 'outbox cleanup failed; will retry').length >= 2, {
      timeoutMs: 30000,
      what: 'two failed cleanups',
    });
    await waitFor(() => warnings.filter((w) => w === 'outbox gauges failed; will retry').length >= 2, {
      timeoutMs: 30000,
      what: 'two failed refreshes',
    });
    await db().raw('RENAME TABLE outbox_events_away TO outbox_events');
    await seed(3, 1);
    await waitFor(async () => (await h.total(h.metrics.cleanedUp)) >= 10, { timeoutMs: 30000, what: 'a later pass deleting the new rows' });
    expect((await batches()).slice(4)).toEqual([2, 1]);
    await waitFor(async () => (await gauge('NEW')) === 4, { timeoutMs: 30000, what: 'the gauges refreshed again' });

    // stop() while a batch waits on a row lock: it resolves only after that batch ran, and no batch follows.
    const held = await seed(3);
    const trx = (lock = await db().transaction());
    await trx('outbox_events').where('id', held[0]).forUpdate().select('id');
    await waitFor(
      async () =>
        (
          (await db().raw("SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) as [{ n: number }[]]
        )[0][0].n > 0,
      { timeoutMs: 30000, what: 'a batch waiting on the lock' },
    );
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(stopped).toBe(false);
    await trx.commit();
    await stopping;
    loop = undefined;
    // The batch in flight deleted two rows and the loop stopped before the batch for the third.
    expect((await batches()).slice(6)).toEqual([2]);
    expect((await statusOf()).filter((r) => r.status === 'SENT')).toHaveLength(2);
  });
});
