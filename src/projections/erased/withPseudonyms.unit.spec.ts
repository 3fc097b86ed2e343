import { noErasedAggregates, pseudonymOf, type ErasedAggregates } from '../../domains/contract/erasure';
import { ORDERS, type OrderRow } from '../../domains/orders/projection/ordersTable';
import { ordersModule } from '../../domains/orders/module';
import { eventSubjectRewriter, guardedRows, subjectRewriter, withoutGuarded, withPseudonyms } from './withPseudonyms';

interface R {
  domain: string;
  id: string;
  who: string;
}
const of = (r: R) => (r.id === '' ? undefined : { domain: r.domain, aggregateId: r.id });
const rewrite = (r: R, p: string): R => ({ ...r, who: p });
const guard: ErasedAggregates = {
  erasedAmong: async (domain, ids) => new Set(ids.filter((id) => domain === 'fitness' && id === 'x')),
  pseudonymsAmong: async (domain, ids) => new Map(ids.filter((id) => domain === 'orders' && id === '1').map((id) => [id, 'anon-1'])),
};
const rows: R[] = [
  { domain: 'orders', id: '1', who: 'c' },
  { domain: 'orders', id: '2', who: 'c' },
  { domain: 'fitness', id: 'x', who: 's' },
  { domain: 'orders', id: '', who: 'c' },
];

describe('withPseudonyms', () => {
  it('rewrites the rows of pseudonymised aggregates only', async () => {
    expect(await withPseudonyms(guard, rows, of, rewrite)).toEqual([{ ...rows[0], who: 'anon-1' }, rows[1], rows[2], rows[3]]);
  });
  it('drops erased aggregates and rewrites pseudonymised ones (a projection writer)', async () => {
    expect(await guardedRows(guard, rows, of, rewrite)).toEqual([{ ...rows[0], who: 'anon-1' }, rows[1], rows[3]]);
  });
  it('drops both for dead letters', async () => {
    expect(await withoutGuarded(guard, rows, of)).toEqual([rows[1], rows[3]]);
  });
  it('changes nothing with a guard without pseudonyms or without a rewrite', async () => {
    expect(await withPseudonyms(noErasedAggregates, rows, of, rewrite)).toEqual(rows);
    expect(await withPseudonyms(guard, rows, of, undefined)).toEqual(rows);
  });
  it('derives the rewrite of the orders row and event from the erasure part (pseudonymise only)', () => {
    const had = ordersModule.erasure;
    if (!had)
      Object.assign(ordersModule, {
        erasure: { subject: 'customer', mode: 'pseudonymise', subjectField: 'customerId', source: () => undefined },
      });
    try {
      const row = { orderId: 'o', customerId: 'c' } as OrderRow;
      const p = pseudonymOf({ subjectHash: 'ab'.repeat(20) });
      expect(p).toBe(`anon-${'ab'.repeat(12)}`);
      expect(subjectRewriter('orders', ORDERS)!(row, p)).toMatchObject({ orderId: 'o', customerId: p });
      expect(eventSubjectRewriter('orders')!({ data: { customerId: 'c', total: '1' } }, p)).toEqual({
        data: { customerId: p, total: '1' },
      });
      expect(subjectRewriter('fitness', ORDERS)).toBeUndefined();
      // The placing subject (changedBy, schema version 2) goes too where it is the customer itself; an operator stays.
      const own = { orderId: 'o', customerId: 'c', changedBy: 'c' } as OrderRow;
      expect(subjectRewriter('orders', ORDERS)!(own, p)).toMatchObject({ customerId: p, changedBy: p });
      expect(subjectRewriter('orders', ORDERS)!({ ...own, changedBy: 'op-1' }, p)).toMatchObject({ customerId: p, changedBy: 'op-1' });
      expect(eventSubjectRewriter('orders')!({ data: { customerId: 'c', changedBy: 'c' } }, p)).toEqual({
        data: { customerId: p, changedBy: p },
      });
    } finally {
      if (!had) delete (ordersModule as { erasure?: unknown }).erasure;
    }
  });
});
