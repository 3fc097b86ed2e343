import { decodeStateChanges, encodeStateChanges, type StateChange } from './stateChange';

const change = (n: number): StateChange => ({
  eventId: `fitness:${n}:1`,
  domain: 'fitness',
  aggregateId: String(n),
  version: 1,
  from: n % 2 ? null : 'NEW',
  to: 'SENT',
  attempt: 0,
  at: new Date(Date.UTC(2026, 10, 30, 12, 0, 0, n)),
});

describe('state-change wire format', () => {
  it('round-trips a chunk of changes in one message, in order', () => {
    const changes = [change(1), change(2), change(3)];
    expect(decodeStateChanges(encodeStateChanges(changes))).toEqual(changes);
  });

  it('still reads a single change (messages written before batching)', () => {
    const c = change(7);
    expect(decodeStateChanges(JSON.stringify({ ...c, at: c.at.toISOString() }))).toEqual([c]);
  });

  it('drops what is not a change instead of failing the whole message', () => {
    const good = change(1);
    const text = JSON.stringify([{ ...good, at: good.at.toISOString() }, { eventId: 1 }, null, { ...good, at: 'not a time' }]);
    expect(decodeStateChanges(text)).toEqual([good]);
    expect(decodeStateChanges('{not json')).toEqual([]);
    expect(decodeStateChanges('42')).toEqual([]);
  });
});
