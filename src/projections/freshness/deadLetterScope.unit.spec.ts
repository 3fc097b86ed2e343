// Which unresolved projector dead letters count in a freshness question: by the scope's data filters and
// the caller's membership (the pending-row rules), by aggregate for per-id markers, and everywhere in
// the domain when the dead letter cannot be attributed (undecodable, or beyond the bounded read).
import { toKafkaRecord } from '../../publication/event';
import { fitnessEvent } from '../../../test/support/projectionEvents';
import { decideFreshness } from './decideFreshness';
import { deadLettersInScope, deadLettersOfAggregate, decodeDeadLetter, type DeadLetterFacts } from './deadLetterScope';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const row = (value: string, aggregateId = '', key = '') => ({
  partition: 0,
  offset: '7',
  reason: 'INVALID_DATA',
  aggregateId,
  key: b64(key),
  value: b64(value),
});
const event = fitnessEvent({
  dataId: 1201,
  detectId: 60001,
  projectId: 3,
  schoolId: 11,
  userId: 501,
  grade: 5,
  version: 2,
  result: '2.310',
});
const decodable = decodeDeadLetter(row(toKafkaRecord(event).value, '1201', '1201'));
const facts = (...rows: DeadLetterFacts['rows']): DeadLetterFacts => ({ rows, truncated: false });

describe('projector dead letters in a freshness scope', () => {
  it('decodes the aggregate and data of an event envelope, and nothing of a message that is not one', () => {
    expect(decodable).toMatchObject({ aggregateId: '1201', data: expect.objectContaining({ detectId: 60001, schoolId: 11 }) });
    expect(decodeDeadLetter(row('not json', '', ''))).toEqual({ reason: 'INVALID_DATA', aggregateId: null, data: null });
    expect(decodeDeadLetter(row('{"aggregateId":"5"}', '5', '5'))).toMatchObject({ aggregateId: '5', data: null });
  });

  it('counts a dead letter in the scopes its data belongs to, within the caller membership', () => {
    const f = facts(decodable);
    expect(deadLettersInScope(f, { domain: 'fitness', dataEquals: { detectId: 60001, projectId: 3 } })).toEqual({
      inScope: 1,
      unattributable: 0,
    });
    expect(deadLettersInScope(f, { domain: 'fitness', dataEquals: { detectId: 60002 } }).inScope).toBe(0);
    expect(deadLettersInScope(f, { domain: 'fitness', dataIn: { schoolId: [11, 12] } }).inScope).toBe(1);
    expect(deadLettersInScope(f, { domain: 'fitness', dataIn: { schoolId: [12] } }).inScope).toBe(0);
    expect(deadLettersInScope(f, { domain: 'fitness', dataIn: {} }).inScope).toBe(0);
  });

  it('counts a dead letter for its own aggregate only, and not for a caller who may not see it', () => {
    const f = facts(decodable);
    expect(deadLettersOfAggregate(f, '1201')).toEqual({ inScope: 1, unattributable: 0 });
    expect(deadLettersOfAggregate(f, '1301').inScope).toBe(0);
    expect(deadLettersOfAggregate(f, '1201', { schoolId: [99] }).inScope).toBe(0);
    expect(deadLettersOfAggregate(f, '1201', { userId: [501] }).inScope).toBe(1);
  });

  it('an undecodable dead letter, or more than were read, could be anyone: every scope and aggregate of the domain', () => {
    const anyone = facts(decodeDeadLetter(row('{oops', '', '')));
    expect(deadLettersInScope(anyone, { domain: 'fitness', dataEquals: { detectId: 1 } })).toEqual({ inScope: 0, unattributable: 1 });
    expect(deadLettersOfAggregate(anyone, '42', { schoolId: [1] })).toEqual({ inScope: 0, unattributable: 1 });
    expect(deadLettersInScope({ rows: [], truncated: true }, { domain: 'fitness' }).unattributable).toBe(1);
  });

  it('makes the marker STALE with PROJECTOR_DEAD_LETTERED', () => {
    const base = {
      asOfMs: 1000,
      staleAfterMs: 60000,
      pending: { ok: true as const, value: { pending: 0, stuck: 0, oldestAtMs: null } },
      progress: { ok: true as const, value: [] },
    };
    expect(decideFreshness({ ...base, deadLetters: { inScope: 2, unattributable: 0 } })).toMatchObject({
      status: 'STALE',
      reason: 'PROJECTOR_DEAD_LETTERED',
      detail: expect.stringContaining('2 event(s) in scope'),
    });
    expect(decideFreshness({ ...base, deadLetters: { inScope: 0, unattributable: 1 } }).reason).toBe('PROJECTOR_DEAD_LETTERED');
    expect(decideFreshness({ ...base, deadLetters: { inScope: 0, unattributable: 0 } }).status).toBe('FRESH');
  });
});
