import { EMPTY_STREAM, addChange, matchesText, type StateChangeLike } from './paths';

const change = (eventId: string, from: string | null, to: string, at = '2026-01-01T00:00:00.000Z'): StateChangeLike => ({
  eventId,
  domain: 'fitness',
  aggregateId: eventId.split('-')[2] ?? eventId,
  version: 1,
  from,
  to,
  attempt: 0,
  at,
});

describe('live stream paths', () => {
  it('builds each event path in order, most recent event first, without doubling a repeated state', () => {
    let s = EMPTY_STREAM;
    for (const c of [
      change('fitness-result-100-v1', null, 'NEW'),
      change('fitness-result-200-v1', null, 'NEW'),
      change('fitness-result-100-v1', 'NEW', 'PROCESSING'),
      change('fitness-result-100-v1', 'PROCESSING', 'SENT'),
      change('fitness-result-100-v1', 'PROCESSING', 'SENT'),
      change('fitness-result-100-v1', null, 'PROJECTION_APPLIED'),
    ])
      s = addChange(s, c);
    expect(s.received).toBe(6);
    expect(s.paths.map((p) => [p.eventId, p.states.join(' > ')])).toEqual([
      ['fitness-result-100-v1', 'NEW > PROCESSING > SENT > PROJECTION_APPLIED'],
      ['fitness-result-200-v1', 'NEW'],
    ]);
    expect(s.changes[0]!.to).toBe('PROJECTION_APPLIED');
  });

  it('places a state by when it happened when changes from two processes arrive out of order', () => {
    let s = EMPTY_STREAM;
    for (const c of [
      change('fitness-result-100-v1', null, 'NEW', '2026-01-01T00:00:00.000Z'),
      change('fitness-result-100-v1', 'NEW', 'PROCESSING', '2026-01-01T00:00:00.010Z'),
      change('fitness-result-100-v1', null, 'PROJECTION_APPLIED', '2026-01-01T00:00:00.080Z'),
      change('fitness-result-100-v1', 'PROCESSING', 'SENT', '2026-01-01T00:00:00.040Z'),
    ])
      s = addChange(s, c);
    expect(s.paths[0]!.states).toEqual(['NEW', 'PROCESSING', 'SENT', 'PROJECTION_APPLIED']);
    expect(s.paths[0]!.lastAt).toBe('2026-01-01T00:00:00.080Z');
  });

  it('keeps the projection after the publication when the relay stamped SENT later than the projector applied it', () => {
    let s = EMPTY_STREAM;
    for (const c of [
      change('fitness-result-100-v1', null, 'NEW', '2026-01-01T00:00:00.000Z'),
      change('fitness-result-100-v1', 'NEW', 'PROCESSING', '2026-01-01T00:00:00.010Z'),
      change('fitness-result-100-v1', null, 'PROJECTION_APPLIED', '2026-01-01T00:00:00.030Z'),
      change('fitness-result-100-v1', 'PROCESSING', 'SENT', '2026-01-01T00:00:00.040Z'),
    ])
      s = addChange(s, c);
    expect(s.paths[0]!.states).toEqual(['NEW', 'PROCESSING', 'SENT', 'PROJECTION_APPLIED']);
    const early = [change('fitness-result-7-v1', null, 'PROJECTION_APPLIED', '2026-01-01T00:00:00.030Z')];
    early.push(change('fitness-result-7-v1', 'NEW', 'PROCESSING', '2026-01-01T00:00:00.010Z'));
    early.push(change('fitness-result-7-v1', 'PROCESSING', 'SENT', '2026-01-01T00:00:00.040Z'));
    s = early.reduce((acc, c) => addChange(acc, c), EMPTY_STREAM);
    expect(s.paths[0]!.states).toEqual(['PROCESSING', 'SENT', 'PROJECTION_APPLIED']);
  });

  it('starts a path first seen mid-way with its from state (a replayed dead letter)', () => {
    const s = addChange(EMPTY_STREAM, change('order-placed:x:v1', 'DEAD_LETTER', 'NOT_PUBLISHED'));
    expect(s.paths[0]!.states).toEqual(['DEAD_LETTER', 'NOT_PUBLISHED']);
  });

  it('keeps at most `keep` changes and paths, dropping the least recent', () => {
    let s = EMPTY_STREAM;
    for (let i = 0; i < 5; i++) s = addChange(s, change(`fitness-result-${i}-v1`, null, 'NEW'), 3);
    expect(s.changes).toHaveLength(3);
    expect(s.paths.map((p) => p.aggregateId)).toEqual(['4', '3', '2']);
  });

  it('narrows by aggregate or event id text', () => {
    expect(matchesText({ eventId: 'fitness-result-900001-v2', aggregateId: '900001' }, ' 9000')).toBe(true);
    expect(matchesText({ eventId: 'fitness-result-900001-v2', aggregateId: '900001' }, 'orders')).toBe(false);
    expect(matchesText({ eventId: 'e', aggregateId: 'a' }, '')).toBe(true);
  });
});
