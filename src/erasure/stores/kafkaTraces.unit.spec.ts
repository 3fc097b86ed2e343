import { replacedValue } from './kafkaPseudonymisation';
import { namesSubject } from './kafkaTraces';

const value = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o));
const before = Date.parse('2026-12-01T00:00:00Z');

describe('a readable trace of the subject on Kafka', () => {
  it('is an event naming the subject (numbers and strings alike) with an event time before the request', () => {
    expect(namesSubject(value({ occurredAt: '2026-03-01T08:00:00Z', data: { userId: 41 } }), 'userId', '41', before)).toBe(true);
    expect(namesSubject(value({ occurredAt: '2026-03-01T08:00:00Z', data: { userId: '41' } }), 'userId', '41', before)).toBe(true);
    expect(namesSubject(value({ data: { userId: 41 } }), 'userId', '41', before)).toBe(true); // no time: counted
  });

  it('is not another subject, one who came back after the request, or a value nobody can read', () => {
    expect(namesSubject(value({ occurredAt: '2026-03-01T08:00:00Z', data: { userId: 42 } }), 'userId', '41', before)).toBe(false);
    expect(namesSubject(value({ occurredAt: '2026-12-02T00:00:00Z', data: { userId: 41 } }), 'userId', '41', before)).toBe(false);
    expect(namesSubject(value('{not json'), 'userId', '41', before)).toBe(false);
    expect(namesSubject(value({ occurredAt: '2026-03-01T08:00:00Z' }), 'userId', '41', before)).toBe(false);
  });
});

describe('a customer named in a version-2 order event', () => {
  const placed = (data: Record<string, unknown>) => value({ occurredAt: '2026-03-01T08:00:00Z', data: { total: '9.0000', ...data } });

  it('is found as the writer too, and replaced wherever it is named; amounts and other writers stay', () => {
    expect(namesSubject(placed({ customerId: 'x', changedBy: 'c-41' }), ['customerId', 'changedBy'], 'c-41', before)).toBe(true);
    const self = JSON.parse(
      replacedValue(placed({ customerId: 'c-41', changedBy: 'c-41' }), 'customerId', 'c-41', 'anon-1', ['changedBy'])!,
    );
    expect(self.data).toEqual({ total: '9.0000', customerId: 'anon-1', changedBy: 'anon-1' });
    const byService = JSON.parse(
      replacedValue(placed({ customerId: 'c-41', changedBy: 'svc' }), 'customerId', 'c-41', 'anon-1', ['changedBy'])!,
    );
    expect(byService.data).toEqual({ total: '9.0000', customerId: 'anon-1', changedBy: 'svc' });
    expect(replacedValue(placed({ customerId: 'c-42', changedBy: null }), 'customerId', 'c-41', 'anon-1', ['changedBy'])).toBeUndefined();
  });
});
