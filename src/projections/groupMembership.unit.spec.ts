import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { membershipLostBy } from './groupMembership';

// What kafkajs's retrier throws once a commit gives up: the error wrapped, the original as `cause`
// (its constructor takes `{ cause }` at runtime; the typings omit that second argument).
const wrapped = (cause: Error) => Object.assign(new KafkaJSNonRetriableError(cause), { cause });
// kafkajs builds protocol errors from the broker's error codes: 25, 22 and 27 below.
const protocolError = (type: string, code: number) => new KafkaJSProtocolError({ type, code, retriable: false, message: type } as never);

describe('a failed offset commit that means the member must re-join', () => {
  it.each([
    ['UNKNOWN_MEMBER_ID', 25],
    ['ILLEGAL_GENERATION', 22],
    ['REBALANCE_IN_PROGRESS', 27],
  ])('%s, bare or wrapped as kafkajs reports a commit that gave up', (type, code) => {
    const cause = protocolError(type, code);
    expect(membershipLostBy(cause)).toBe(cause);
    expect(membershipLostBy(wrapped(cause))).toBe(cause);
  });

  it('leaves every other failure to the usual path (the tail is re-delivered)', () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    for (const err of [
      refused,
      wrapped(refused),
      protocolError('NOT_COORDINATOR', 16),
      protocolError('REQUEST_TIMED_OUT', 7),
      new Error('UNKNOWN_MEMBER_ID'),
      undefined,
      null,
    ])
      expect(membershipLostBy(err)).toBeUndefined();
  });
});
