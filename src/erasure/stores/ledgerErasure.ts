// The reconciliation ledger's erasure ('reconciliation-ledger' on the certificate). The ledger keeps
// an audit trail of runs, discrepancies and repairs; an erased student's aggregates must not stay
// readable in it, but the trail must keep its shape (counts, kinds, outcomes): ids become markers
// (erasedMarker: a keyed hash, so nobody without the key can test a guessed id), stored digests and
// the quarantine of the aggregates go, and their open discrepancies are resolved as ERASED
// (src/reconciliation/ledger/sql/scrubAggregates.ts). One step does it all, in one transaction.
// verify searches every ledger table that can name an aggregate, read-only.
// Mode 'pseudonymise' (a customer of orders): the aggregates are not scrubbed (the financial history
// stays); the subject's id becomes pseudonymOf(job) wherever the ledger names it
// (src/reconciliation/ledger/sql/pseudonymiseSubject.ts), and verify counts what still names it.
import type { Knex } from 'knex';
import { pseudonymOf, type ErasureJob, type StoreErasure, type StoreSearch, type StoreStepResult } from '../../domains/contract/erasure';
import { countSubjectTraces, pseudonymiseSubject } from '../../reconciliation/ledger/sql/pseudonymiseSubject';
import { countAggregateTraces, LEDGER_TABLES, scrubAggregates } from '../../reconciliation/ledger/sql/scrubAggregates';
import type { Clock } from '../../shared/clock';
import { erasedMarker } from '../../shared/keyedHash';

export const LEDGER_STORE = 'reconciliation-ledger';

/** What stands for an erased aggregate of a domain in records that are kept (the ledger's audit trail). */
export const erasedAggregateMarker = (key: Buffer, domain: string, aggregateId: string): string => erasedMarker(key, domain, aggregateId);

export function ledgerErasure(d: { pg: Knex; key: Buffer; clock: Clock }): StoreErasure {
  return {
    store: LEDGER_STORE,
    async erase(job: ErasureJob): Promise<StoreStepResult> {
      if (job.mode === 'pseudonymise')
        return { affected: await pseudonymiseSubject(d.pg, job.domain, { id: job.subjectId, pseudonym: pseudonymOf(job) }), done: true };
      const affected = await scrubAggregates(d.pg, {
        domain: job.domain,
        aggregates: job.aggregateIds.map((id) => ({ id, marker: erasedAggregateMarker(d.key, job.domain, id) })),
        subject: { id: job.subjectId, marker: erasedMarker(d.key, job.kind, job.subjectId) },
        at: d.clock.now(),
      });
      return { affected, done: true };
    },
    async verify(job: ErasureJob): Promise<StoreSearch> {
      const searchedAt = d.clock.now();
      const { found, byTable } =
        job.mode === 'pseudonymise'
          ? await countSubjectTraces(d.pg, job.domain, job.subjectId)
          : await countAggregateTraces(d.pg, job.domain, job.aggregateIds, job.subjectId);
      const where = Object.entries(byTable)
        .filter(([, n]) => n > 0)
        .map(([t, n]) => `${t}: ${n}`);
      return {
        store: LEDGER_STORE,
        searched: LEDGER_TABLES,
        searchedAt,
        found,
        ...(where.length ? { note: `rows naming them: ${where.join(', ')}` } : {}),
      };
    },
  };
}
