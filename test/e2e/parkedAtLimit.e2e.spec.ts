// Parking at the production attempt limit, on a real relay process (`node --import tsx src/main.ts
// --roles gateway,relay`) against the real MariaDB and Kafka. One outbox row of shard 0 is a record the
// broker always refuses (larger than the topic's max.message.bytes: MESSAGE_TOO_LARGE, a failure of the
// record itself, so it spends an attempt and is retried after the backoff rather than parked at once).
// RELAY_MAX_ATTEMPTS is left at its production default; only RELAY_BACKOFF_* are made small. The row must
// end PARKED with exactly that many attempts, the rows written meanwhile must be delivered while it is
// still being retried, and operators must see it in the parkedEvents query.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsTable } from '../../src/config/settings';
import { waitFor } from '../../src/shared/lifecycle';
import { roleProcessEnv, startRoleProcess, type RoleProcess } from '../faults/support/roleProcesses';
import { executeRaw } from '../support/graphqlClient';
import { makePoison, seedOutbox } from '../support/outboxSeed';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

const PARKED = 'query P { parkedEvents(first: 10) { eventId store shard attempts lastErrorCode } }';

interface Row {
  event_id: string;
  status: string;
  attempts: number;
  last_error_code: string | null;
  sent_at: Date | null;
  parked_at: Date | null;
}

describe('a record the broker always refuses, at the production attempt limit', () => {
  let env: TestEnv;
  let logDir: string;
  let relay: RoleProcess | undefined;

  beforeAll(async () => {
    // Only the backoff is sped up: the attempt limit stays the production one.
    env = await createTestEnv({ relayBackoffBaseMs: 20, relayBackoffMaxMs: 300 });
    logDir = mkdtempSync(join(tmpdir(), 'tidemark-parked-'));
  });
  afterAll(async () => {
    if (relay && !relay.exited()) await relay.kill();
    if (!process.env.KEEP_DRAIN_LOGS) rmSync(logDir, { recursive: true, force: true });
    await env?.cleanup();
  });

  it('is parked with exactly RELAY_MAX_ATTEMPTS attempts while the rows written meanwhile flow, and operators see it', async () => {
    const limit = Number(settingsTable.relayMaxAttempts.default);
    expect(limit).toBeGreaterThan(1);
    expect(env.settings.relayMaxAttempts).toBe(limit);
    const shard = env.resources.mysql.shard(0).db;
    const topic = env.resources.topics.events.fitness;
    const [poison] = await seedOutbox(shard, topic, 1, { shard: 0 });
    await makePoison(shard, poison!.eventId);
    const row = async (eventId: string) => (await shard('outbox_events').where({ event_id: eventId }).first()) as Row;

    relay = await startRoleProcess({ name: 'relay-parking', roles: ['gateway', 'relay'], env: roleProcessEnv(env.settings), logDir });

    // While the poison is retried, one good row is written after each of its failed attempts seen here.
    const meanwhile = new Map<string, number>();
    const seenAttempts = new Set<number>();
    const parked = await waitFor(
      async () => {
        const p = await row(poison!.eventId);
        if (p.status === 'PARKED') return p;
        if (p.attempts >= 1 && !seenAttempts.has(p.attempts)) {
          seenAttempts.add(p.attempts);
          const [good] = await seedOutbox(shard, topic, 1, { shard: 0 });
          meanwhile.set(good!.eventId, p.attempts);
        }
        return undefined;
      },
      { timeoutMs: 180000, intervalMs: 20, what: 'the refused record to be parked' },
    );

    expect(parked).toMatchObject({ status: 'PARKED', attempts: limit, last_error_code: 'MESSAGE_TOO_LARGE', sent_at: null });
    expect(parked.parked_at).not.toBeNull();
    // Parked rows are not claimed again: the count stays at the limit.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await row(poison!.eventId)).toMatchObject({ status: 'PARKED', attempts: limit });

    // Every row written while it was retried is delivered; some before it was parked (they did not wait for it).
    expect(meanwhile.size).toBeGreaterThan(0);
    const good = await waitFor(
      async () => {
        const rows = (await shard('outbox_events').whereIn('event_id', [...meanwhile.keys()])) as Row[];
        return rows.every((r) => r.status === 'SENT') && rows;
      },
      { timeoutMs: 60000, what: 'the rows written meanwhile to be sent' },
    );
    expect(good).toHaveLength(meanwhile.size);
    const sentBeforeParked = good.filter((r) => r.sent_at!.getTime() <= parked.parked_at!.getTime() && meanwhile.get(r.event_id)! < limit);
    expect(sentBeforeParked.length).toBeGreaterThan(0);

    // Operators see it, with the attempts it used and why.
    const operator = await authHeader(env.settings, 'operator');
    const res = await executeRaw(relay.url!, PARKED, {}, operator);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      parkedEvents: [{ eventId: poison!.eventId, store: 'mysql', shard: 0, attempts: limit, lastErrorCode: 'MESSAGE_TOO_LARGE' }],
    });

    expect(await relay.stop(20000)).toMatchObject({ drained: true, exitCode: 0 });
  }, 300000);
});
