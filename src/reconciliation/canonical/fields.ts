// What each reconciliation level compares, per domain: the ordered field lists of the canonical line.
// Every engine's SQL and the TypeScript side are generated from these lists, so a field added here is
// added everywhere at once. Field names are the agreed event contract's (data.*).
//   IDS      identity, version and deletion state: finds missing, stale, undeleted and unexpected rows
//   CONTENT  everything a report depends on: also finds equal-version field errors (a wrong schoolId)
import type { Domain } from '../../publication/event';
import type { FieldSpec } from './canonical';

export type CompareLevel = 'IDS' | 'CONTENT';

const int = { kind: 'int' } as const;
const text = { kind: 'text' } as const;
const bool = { kind: 'bool' } as const;
const timestamp = { kind: 'timestamp' } as const;

const fitnessIds: FieldSpec[] = [
  { name: 'dataId', type: int },
  { name: 'version', type: int },
  { name: 'isDeleted', type: bool },
];

const fitnessContent: FieldSpec[] = [
  ...fitnessIds,
  { name: 'detectId', type: int },
  { name: 'userId', type: int },
  { name: 'projectId', type: int },
  { name: 'schoolId', type: int },
  { name: 'grade', type: int },
  { name: 'result', type: { kind: 'decimal', scale: 3 } },
  { name: 'unit', type: text },
  { name: 'createdAt', type: timestamp },
  // The source commit time of this version: a replay that kept the version but not its time is wrong.
  { name: 'updatedAt', type: timestamp },
];

const orderIds: FieldSpec[] = [
  { name: 'orderId', type: text },
  { name: 'version', type: int },
  { name: 'isDeleted', type: bool },
];

export const ORDER_ITEM_FIELDS: FieldSpec[] = [
  { name: 'sku', type: text },
  { name: 'quantity', type: int },
  { name: 'unitPrice', type: { kind: 'decimal', scale: 4 } },
];

const orderContent: FieldSpec[] = [
  ...orderIds,
  { name: 'customerId', type: text },
  { name: 'currency', type: text },
  { name: 'total', type: { kind: 'decimal', scale: 4 } },
  { name: 'itemCount', type: int },
  { name: 'items', type: { kind: 'list', item: ORDER_ITEM_FIELDS } },
  { name: 'createdAt', type: timestamp },
];

export const CANONICAL_FIELDS: Record<Domain, Record<CompareLevel, readonly FieldSpec[]>> = {
  fitness: { IDS: fitnessIds, CONTENT: fitnessContent },
  orders: { IDS: orderIds, CONTENT: orderContent },
};

export function fieldsOf(domain: Domain, level: CompareLevel): readonly FieldSpec[] {
  return CANONICAL_FIELDS[domain][level];
}
