// The orders domain as one module: orders in PostgreSQL, published kafka-first (with the
// event_publications fallback) by default, projected into orders, reconciled per UTC hour window.
import { domainAccess, type DomainModule } from '../contract/domainModule';
import { ordersSourceErasure } from './erasure/ordersSourceErasure';
import { orderMembership, ordersPolicy } from './policy';
import { ordersProjection } from './projection/ordersProjection';
import { ordersReconciliation } from './reconciliation/ordersReconciliation';

export const ordersModule: DomainModule = {
  name: 'orders',
  topicSuffix: 'orders',
  tokenCode: 'o',
  store: 'postgres',
  defaultStrategy: 'kafka-first',
  strategySetting: 'ordersStrategy',
  access: domainAccess({ policy: ordersPolicy, membership: orderMembership, scopeFields: ['customerId', 'currency'] }),
  projection: ordersProjection,
  reconciliation: ordersReconciliation,
  // A customer's orders are financial facts: erasure replaces the customer's id by its pseudonym.
  erasure: {
    subject: 'customer',
    mode: 'pseudonymise',
    subjectField: 'customerId',
    // A customer placing for itself is also the order's changedBy (schema version 2 events, the projection).
    writerFields: ['changedBy'],
    source: (stores, clock) => ordersSourceErasure({ pg: stores.pg, clock }),
  },
};
