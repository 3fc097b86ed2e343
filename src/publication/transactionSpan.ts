// The span of a write's local transaction, for both strategies: its W3C traceparent is what the outbox
// or fallback row stores, so the relay's send continues exactly this transaction's trace.
import type { Knex } from 'knex';
import { dialectOf } from '../infra/sql/dialect';
import { SpanKind, withSpan } from '../shared/tracing';
import type { Strategy } from './publisher';

export function withTransactionSpan<T>(db: Knex, strategy: Strategy, run: () => Promise<T>): Promise<T> {
  const system = dialectOf(db) === 'postgres' ? 'postgresql' : 'mysql';
  const name = (db.client as { config?: { connection?: { database?: string } } }).config?.connection?.database ?? '';
  return withSpan(
    'db.transaction',
    { kind: SpanKind.CLIENT, attributes: { 'db.system': system, 'db.namespace': name, 'tidemark.strategy': strategy } },
    () => run(),
  );
}
