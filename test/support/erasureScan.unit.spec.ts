// The independent search's customer variant: the customer's id under a customer-id key, in a row
// rendered as JSON or in JSON kept as text inside a row (escaped quotes); not a longer id, not a pseudonym.
import { traceIn } from './erasureScan';

describe('traceIn (customer)', () => {
  const t = { customerId: 'cust-C.1' };
  it.each([
    ['"customer_id":"cust-C.1"', 'customerId'],
    ['"message_value":"{\\"data\\":{\\"customerId\\":\\"cust-C.1\\"}}"', 'customerId'],
    ['"customerId": "cust-C.1"', 'customerId'],
    ['"customer_id":"cust-C.10"', undefined],
    ['"customer_id":"cust-CX1"', undefined],
    ['"customer_id":"anon-0123"', undefined],
    ['"note":"cust-C.1"', undefined],
  ])('%s', (text, hit) => expect(traceIn(text, t)).toBe(hit));
});
