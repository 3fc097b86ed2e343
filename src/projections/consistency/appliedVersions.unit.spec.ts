// The waiter: notices wake exactly the watches they satisfy (a newer version satisfies an older
// wish), dead letters of exactly the version waited for end the wait with their reason, remembered
// dead letters answer later watches at once, and closing a watch leaves nothing behind.
import type { StateChange } from '../../publication/stateChanges/stateChange';
import { createAppliedVersions } from './appliedVersions';

const at = new Date(0);
const change = (aggregateId: string, version: number, to: StateChange['to'], from: StateChange['from'] = null): StateChange => ({
  eventId: `e-${aggregateId}-${version}`,
  domain: 'fitness',
  aggregateId,
  version,
  from,
  to,
  attempt: 0,
  at,
});
const w = (aggregateId: string, version: number) => ({ domain: 'fitness' as const, aggregateId, version });

describe('applied versions', () => {
  it('a PROJECTION_APPLIED of the version or a newer one makes a write visible; an older one does not', async () => {
    const a = createAppliedVersions();
    const watch = a.watch([w('1', 2), w('2', 1)]);
    a.observe([change('1', 1, 'PROJECTION_APPLIED'), change('2', 1, 'SENT')]);
    expect(watch.states()).toEqual(['waiting', 'waiting']);
    a.observe([change('1', 3, 'PROJECTION_APPLIED')]);
    expect(watch.states()).toEqual(['visible', 'waiting']);
    const waited = watch.wait(60000);
    a.observe([change('2', 1, 'PROJECTION_APPLIED')]);
    await waited; // resolved by the notice, not the (long) timer
    expect(watch.done()).toBe(true);
    watch.close();
    expect(a.watched()).toBe(0);
  });

  it('a dead letter of exactly that version blocks it with its reason and ends the wait', async () => {
    const a = createAppliedVersions();
    const projector = a.watch([w('1', 2), w('2', 1)]);
    a.observe([change('1', 1, 'PROJECTION_DEAD_LETTERED')]);
    expect(projector.done()).toBe(false);
    const waited = projector.wait(60000);
    a.observe([change('1', 2, 'PROJECTION_DEAD_LETTERED')]);
    await waited;
    expect(projector.states()).toEqual(['PROJECTOR_DEAD_LETTERED', 'waiting']);
    const relay = a.watch([w('5', 1)]);
    a.observe([change('5', 1, 'PARKED', 'FAILED')]);
    expect(relay.states()).toEqual(['PARKED_OR_DEAD_LETTERED']);
  });

  it('remembers recent dead letters for watches that start later, until the event is replayed', () => {
    const a = createAppliedVersions({ maxRemembered: 2 });
    a.observe([change('1', 1, 'DEAD_LETTER', 'NOT_PUBLISHED'), change('2', 1, 'PROJECTION_DEAD_LETTERED')]);
    expect(a.watch([w('1', 1)]).states()).toEqual(['PARKED_OR_DEAD_LETTERED']);
    expect(a.watch([w('2', 1)]).states()).toEqual(['PROJECTOR_DEAD_LETTERED']);
    a.observe([change('1', 1, 'NOT_PUBLISHED', 'DEAD_LETTER')]); // an operator replayed it
    expect(a.watch([w('1', 1)]).states()).toEqual(['waiting']);
    a.observe([change('3', 1, 'PROJECTION_DEAD_LETTERED'), change('4', 1, 'PROJECTION_DEAD_LETTERED')]);
    expect(a.watch([w('2', 1)]).states()).toEqual(['waiting']); // the oldest was forgotten (bounded)
  });

  it('a ClickHouse check settles what the projection already holds', () => {
    const a = createAppliedVersions();
    const watch = a.watch([w('1', 2), w('2', 3)]);
    watch.settleFrom([2, 1]);
    expect(watch.states()).toEqual(['visible', 'waiting']);
  });

  it('times out without a notice, and a closed watch is never woken again', async () => {
    const a = createAppliedVersions();
    const watch = a.watch([w('1', 1)]);
    await watch.wait(5);
    expect(watch.done()).toBe(false);
    watch.close();
    a.observe([change('1', 1, 'PROJECTION_APPLIED')]);
    expect(watch.states()).toEqual(['waiting']);
    expect(a.watched()).toBe(0);
  });
});
