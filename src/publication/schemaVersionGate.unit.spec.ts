import type { GroupReads, GroupReadsView } from '../infra/kafka/groupReads';
import { fixedClock } from '../shared/clock';
import { waitFor } from '../shared/lifecycle';
import { silentLogger } from '../shared/logger';
import { agreedReads, startSchemaVersionGate, type SchemaVersionGate } from './schemaVersionGate';

const domains = ['fitness', 'orders'];
const member = (memberId: string, reads?: Record<string, number>) => ({ memberId, reads });

describe('what the projector group agrees it reads', () => {
  it('is the least announced version per domain; a member that announced nothing reads 1', () => {
    const v: GroupReadsView = { state: 'Stable', members: [member('a', { fitness: 2, orders: 2 }), member('b', { fitness: 2 })] };
    expect(Object.fromEntries(agreedReads(v, domains)!)).toEqual({ fitness: 2, orders: 1 });
    expect(Object.fromEntries(agreedReads({ state: 'Stable', members: [member('a', { fitness: 2 }), member('old')] }, domains)!)).toEqual({
      fitness: 1,
      orders: 1,
    });
  });

  it('is nothing to go by while the group rebalances or has no member', () => {
    expect(agreedReads({ state: 'PreparingRebalance', members: [member('a', { fitness: 2 })] }, domains)).toBeUndefined();
    expect(agreedReads({ state: 'CompletingRebalance', members: [member('a', { fitness: 2 })] }, domains)).toBeUndefined();
    expect(agreedReads({ state: 'Empty', members: [] }, domains)).toBeUndefined();
  });
});

describe('the schema version gate', () => {
  let gate: SchemaVersionGate | undefined;
  afterEach(async () => gate?.stop());

  /** A group whose next answer the test sets (a view, or a failure: Kafka cannot be asked). */
  function scripted() {
    let next: GroupReadsView | Error = { state: 'Empty', members: [] };
    let asked = 0;
    const group: GroupReads = {
      describe: async () => {
        asked++;
        if (next instanceof Error) throw next;
        return next;
      },
      close: async () => undefined,
    };
    return { group, set: (v: GroupReadsView | Error) => (next = v), asked: () => asked };
  }
  const start = (group: GroupReads, known = { fitness: 2, orders: 2 }) =>
    startSchemaVersionGate({
      group,
      known,
      versionToWrite: (d, agreed) => Math.max(1, Math.min(known[d as 'fitness'] ?? 1, agreed)),
      refreshMs: 5,
      retry: { delayMs: () => 5, giveUp: () => false },
      clock: fixedClock('2026-12-03T00:00:00Z'),
      logger: silentLogger,
    });

  it('writes 1 until the first Stable view, then what every member reads; keeps it through a rebalance and an outage', async () => {
    const s = scripted();
    gate = start(s.group);
    await waitFor(() => s.asked() >= 2);
    expect(gate.toWrite('fitness')).toBe(1);
    expect(gate.view('fitness')).toMatchObject({ writing: 1, newestKnown: 2, readersAgree: null });

    s.set({ state: 'Stable', members: [member('a', { fitness: 2, orders: 2 }), member('b', { fitness: 2, orders: 2 })] });
    await waitFor(() => gate!.toWrite('fitness') === 2);
    expect(gate.view('orders')).toMatchObject({ writing: 2, readersAgree: 2 });

    s.set({ state: 'PreparingRebalance', members: [member('a', { fitness: 1 })] });
    const seen = s.asked();
    await waitFor(() => s.asked() >= seen + 2);
    expect(gate.toWrite('fitness')).toBe(2);

    s.set(new Error('connect ECONNREFUSED'));
    await waitFor(() => s.asked() >= seen + 4);
    expect(gate.toWrite('fitness')).toBe(2);

    s.set({ state: 'Stable', members: [member('a', { fitness: 2, orders: 2 }), member('old')] });
    await waitFor(() => gate!.toWrite('orders') === 1);
    expect(gate.toWrite('fitness')).toBe(1);
  });

  it('never writes beyond what this process knows (EVENT_SCHEMA_VERSION_CAP)', async () => {
    const s = scripted();
    s.set({ state: 'Stable', members: [member('a', { fitness: 2, orders: 2 })] });
    gate = start(s.group, { fitness: 1, orders: 1 });
    await waitFor(() => gate!.view('fitness').readersAgree === 2);
    expect(gate.view('fitness')).toMatchObject({ writing: 1, newestKnown: 1, readersAgree: 2 });
  });
});
