// What may be stored on a row or shown to an operator from an exception: a code and a redacted,
// truncated summary, never secrets or payload fragments.
import { summarizeError } from './redact';

describe('summarizeError', () => {
  it('keeps the class or code and removes secrets and payload fragments from the text', () => {
    const err = new Error('SASL authentication failed: password=hunter2-secret-pw while sending {"customerId":"SECRET-CUSTOMER"}');
    const s = summarizeError(err);
    expect(s.code).toBe('Error');
    expect(s.summary).toContain('SASL authentication failed');
    expect(s.summary).toContain('[redacted]');
    expect(s.summary).not.toContain('hunter2');
    expect(s.summary).not.toContain('SECRET-CUSTOMER');
  });
  it('prefers a protocol type or code over the class name, and truncates long text', () => {
    expect(summarizeError(Object.assign(new Error('x'), { name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE' })).code).toBe(
      'MESSAGE_TOO_LARGE',
    );
    expect(summarizeError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).code).toBe('ECONNREFUSED');
    const long = summarizeError(new Error('y'.repeat(1000)));
    expect(long.summary.length).toBeLessThanOrEqual(200);
    expect(summarizeError('plain text')).toEqual({ code: 'UNKNOWN', summary: 'plain text' });
  });
});
