// Seeds outbox rows the way the write path does (appendOutboxEvents inside a transaction), with
// agreed fitness events, for relay tests and the drain benchmark.
import type { Knex } from 'knex';
import { fitnessEvent } from '../../src/domains/fitness/events';
import type { FitnessResultState } from '../../src/domains/fitness/types';
import type { DomainEvent } from '../../src/publication/event';
import { appendOutboxEvents } from '../../src/publication/outbox/appendOutboxEvents';

let nextSequence = 1;

export function sampleFitnessState(over: Partial<FitnessResultState> = {}): FitnessResultState {
  const shard = over.shard ?? 0;
  const dataId = over.dataId ?? nextSequence++ * 100 + shard;
  const at = new Date('2026-03-01T08:00:00.000Z');
  return {
    dataId,
    detectId: 10001,
    userId: 4,
    projectId: 3,
    schoolId: 77,
    grade: 5,
    result: '2.210',
    unit: 'm',
    version: 1,
    isDeleted: false,
    createdAt: at,
    updatedAt: at,
    shard,
    changedBy: null,
    ...over,
  };
}

/** Appends `count` version-1 events (unique dataIds from `firstSequence`) in chunks; returns them. */
export async function seedOutbox(
  db: Knex,
  topic: string,
  count: number,
  opts: { firstSequence?: number; shard?: number; chunk?: number } = {},
): Promise<DomainEvent[]> {
  const first = opts.firstSequence ?? nextSequence;
  nextSequence = Math.max(nextSequence, first + count);
  const events = Array.from({ length: count }, (_, i) =>
    fitnessEvent('FitnessResultRecorded', sampleFitnessState({ dataId: (first + i) * 100 + (opts.shard ?? 0), shard: opts.shard ?? 0 }), 1),
  );
  const chunk = opts.chunk ?? 1000;
  for (let i = 0; i < events.length; i += chunk) {
    await db.transaction((trx) => appendOutboxEvents(trx, events.slice(i, i + chunk), () => topic));
  }
  return events;
}

/** Keeps at least `min` NEW rows in the outbox (seeding `chunk` at a time) until stopped; for tests that catch a relay mid-batch. */
export function keepOutboxBacklog(db: Knex, topic: string, min = 80, chunk = 200): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      const [{ n }] = (await db('outbox_events').where({ status: 'NEW' }).count({ n: '*' })) as { n: number | string }[];
      if (Number(n) < min) await seedOutbox(db, topic, chunk);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Larger than the broker's default max.message.bytes (1 MiB): the broker refuses this record itself. */
export const TOO_LARGE = 'x'.repeat(1_200_000);

/** Makes a seeded row a record the broker refuses (poison), as a real oversized event would be. */
export async function makePoison(db: Knex, eventId: string): Promise<void> {
  await db('outbox_events').where({ event_id: eventId }).update({ message_value: TOO_LARGE });
}
