// The orders source's erasure ('postgres' on the certificate): a customer's identity on its orders in
// PostgreSQL. Orders are financial facts and stay: the customer's id is REPLACED by its keyed pseudonym
// (pseudonymOf(job), the same on every store), amounts, lines and currencies are untouched.
//
//   collect  the order ids of the customer's orders, and of any outbox_events / event_publications row
//            whose event data names the customer (orders publish kafka-first by default, with the
//            outbox as the other strategy; rows of either may remain from a switch)
//   erase    one transaction: the orders' customer_id (and idempotency_owner / changed_by where the
//            customer placed for itself), and data.customerId in the publication rows of those
//            orders in every state (a NOT_PUBLISHED fallback, a DEAD_LETTER), set to the pseudonym;
//            data.changedBy too where it is the customer's id (schema version 2 events)
//   verify   a read-only count per table of rows created before job.startedAt still naming the
//            customer (columns, event data): a returning customer's new orders are not the request's
//
// Nothing personal reaches an error: driver failures become typed errors naming the store only.
import type { Knex } from 'knex';
import { countOutboxAggregateRows, outboxAggregatesNaming } from '../../../publication/outbox/sql/findAggregateRows';
import { replaceDataField as replaceOutboxField } from '../../../publication/outbox/sql/replaceDataField';
import { countPublicationAggregateRows, publicationAggregatesNaming } from '../../../publication/kafkaFirst/sql/findAggregateRows';
import { replaceDataField as replacePublicationField } from '../../../publication/kafkaFirst/sql/replaceDataField';
import type { Clock } from '../../../shared/clock';
import { hasControlCharacters } from '../../../shared/controlCharacters';
import { ValidationError, toTidemarkError } from '../../../shared/errors';
import { pseudonymOf, type ErasureJob, type SourceErasure, type StoreSearch, type StoreStepResult } from '../../contract/erasure';
import { countCustomerOrderRows, customerOrderIds } from '../customerOrderRows';
import { ORDER_BOUNDS } from '../order';
import { pseudonymiseOrderRows } from '../pseudonymiseOrderRows';

const STORE = 'postgres';
const DOMAIN = 'orders';
const SUBJECT_FIELD = 'customerId';
/** The event fields that name the customer where it placed the order itself (the module's writerFields). */
const WRITER_FIELDS = ['changedBy'] as const;
const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBJECT_RULE = `a customerId is 1-${ORDER_BOUNDS.maxCustomerIdLength} characters, not blank, without control characters`;
const TABLES = ['orders', 'outbox_events', 'event_publications'] as const;

/** The orders domain's own customerId rule (decidePlaceOrder's requireText). */
function subjectProblem(subjectId: string): string | undefined {
  const ok = subjectId.trim() !== '' && subjectId.length <= ORDER_BOUNDS.maxCustomerIdLength && !hasControlCharacters(subjectId);
  return ok ? undefined : SUBJECT_RULE;
}

async function inStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toTidemarkError(err, STORE);
  }
}

export function ordersSourceErasure(d: { pg: Knex; clock: Clock }): SourceErasure {
  const subject = (subjectId: string): string => {
    // The runner checks subjects first (checkSubject); this only guards a direct call (no value in the message).
    if (subjectProblem(subjectId) !== undefined) throw new ValidationError('customerId', SUBJECT_RULE);
    return subjectId;
  };
  return {
    store: STORE,
    checkSubject: subjectProblem,
    async collect(subjectId) {
      const customerId = subject(subjectId);
      const ids = await inStore(async () => [
        ...(await customerOrderIds(d.pg, customerId)),
        ...(await outboxAggregatesNaming(d.pg, DOMAIN, SUBJECT_FIELD, customerId)),
        ...(await publicationAggregatesNaming(d.pg, DOMAIN, SUBJECT_FIELD, customerId)),
      ]);
      return [...new Set(ids)].sort();
    },
    async erase(job: ErasureJob): Promise<StoreStepResult> {
      const customerId = subject(job.subjectId);
      const to = pseudonymOf(job);
      const orderIds = job.aggregateIds.filter((id) => ORDER_ID.test(id));
      if (!orderIds.length) return { affected: 0, done: true };
      const affected = await inStore(() =>
        d.pg.transaction(async (trx) => {
          let n = await pseudonymiseOrderRows(trx, orderIds, customerId, to);
          for (const field of [SUBJECT_FIELD, ...WRITER_FIELDS]) {
            n += await replaceOutboxField(trx, DOMAIN, orderIds, field, customerId, to);
            n += await replacePublicationField(trx, DOMAIN, orderIds, field, customerId, to);
          }
          return n;
        }),
      );
      return { affected, done: true };
    },
    async verify(job: ErasureJob): Promise<StoreSearch> {
      const customerId = subject(job.subjectId);
      const named = { field: SUBJECT_FIELD, value: customerId, createdBefore: job.startedAt };
      // Publication rows of the job's orders count only while they still name the customer: after a
      // pseudonymisation they stay (the order's event is kept), so the aggregate list is not passed.
      const counts = await inStore(async () => [
        await countCustomerOrderRows(d.pg, customerId, job.startedAt),
        await countOutboxAggregateRows(d.pg, DOMAIN, [], named),
        await countPublicationAggregateRows(d.pg, DOMAIN, [], named),
      ]);
      return { store: STORE, searched: [...TABLES], searchedAt: d.clock.now(), found: counts.reduce((a, b) => a + b, 0) };
    },
  };
}
