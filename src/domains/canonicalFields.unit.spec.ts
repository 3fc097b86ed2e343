// The canonical fields are derived from the domains' table specs; the canonical line is a contract
// between every engine's SQL and stored digests, so the derived lists must stay exactly these.
import { fieldsOf } from './canonicalFields';
import { listItems } from './contract/canonicalFields';
import { ORDERS } from './orders/projection/ordersTable';

const int = { kind: 'int' };
const text = { kind: 'text' };
const bool = { kind: 'bool' };
const timestamp = { kind: 'timestamp' };
const items = [
  { name: 'sku', type: text },
  { name: 'quantity', type: int },
  { name: 'unitPrice', type: { kind: 'decimal', scale: 4 } },
];

describe('canonical fields derived from the projection table specs', () => {
  it('compares the fitness fields in the agreed order', () => {
    const ids = [
      { name: 'dataId', type: int },
      { name: 'version', type: int },
      { name: 'isDeleted', type: bool },
    ];
    expect({ IDS: fieldsOf('fitness', 'IDS'), CONTENT: fieldsOf('fitness', 'CONTENT') }).toEqual({
      IDS: ids,
      CONTENT: [
        ...ids,
        { name: 'detectId', type: int },
        { name: 'userId', type: int },
        { name: 'projectId', type: int },
        { name: 'schoolId', type: int },
        { name: 'grade', type: int },
        { name: 'result', type: { kind: 'decimal', scale: 3 } },
        { name: 'unit', type: text },
        { name: 'createdAt', type: timestamp },
        { name: 'updatedAt', type: timestamp },
      ],
    });
  });

  it('compares the order fields, line items as one list, in the agreed order', () => {
    const ids = [
      { name: 'orderId', type: text },
      { name: 'version', type: int },
      { name: 'isDeleted', type: bool },
    ];
    expect(listItems(ORDERS, 'items')).toEqual(items);
    expect({ IDS: fieldsOf('orders', 'IDS'), CONTENT: fieldsOf('orders', 'CONTENT') }).toEqual({
      IDS: ids,
      CONTENT: [
        ...ids,
        { name: 'customerId', type: text },
        { name: 'currency', type: text },
        { name: 'total', type: { kind: 'decimal', scale: 4 } },
        { name: 'itemCount', type: int },
        { name: 'items', type: { kind: 'list', item: items } },
        { name: 'createdAt', type: timestamp },
      ],
    });
  });
});
