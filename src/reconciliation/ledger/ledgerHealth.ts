// The reconciliation ledger's part of the operator's publicationHealth view: per domain, what is
// unresolved, awaiting verification, and how old the last CLEAN CONTENT verification is. It lives
// here, beside the ledger's queries, and is passed into publication/health/publicationHealth.ts, which
// sits below reconciliation and must not import it.
import type { Knex } from 'knex';
import type { PublicationHealthDeps } from '../../publication/health/publicationHealth';
import type { Domain } from '../../shared/domain';
import { ledgerGauges } from './sql/ledgerQueries';
import { verificationAges } from './sql/scopeRegistry';

/** Reconciliation state of a domain, from the reconciliation ledger (PostgreSQL). */
export function fromReconciliationLedger(ledger: Knex): NonNullable<PublicationHealthDeps['reconciliation']> {
  return async (domain) => {
    const [g, ages] = await Promise.all([ledgerGauges(ledger), verificationAges(ledger)]);
    const sum = (xs: { domain: Domain; n: number }[]) => xs.filter((x) => x.domain === domain).reduce((n, x) => n + x.n, 0);
    const age = ages.find((a) => a.domain === domain);
    return {
      unresolvedDiscrepancies: sum(g.unresolved),
      repairsAwaitingVerification: sum(g.awaitingVerification),
      oldestVerificationAgeSeconds: age ? age.oldestAgeSeconds : null,
      scopesNeverVerified: age?.neverVerified ?? 0,
    };
  };
}
