// The audit trail of repairs (newest first) and the projection rebuilds, refreshed with the
// discrepancies until each reaches its verification.
import type { ConsoleRebuildFragment, ConsoleRepairFragment } from '../api/generated';
import { EmptyRow } from '../ui/tables';

export function RepairsAndRebuilds({
  repairs,
  rebuilds,
}: {
  repairs: readonly ConsoleRepairFragment[];
  rebuilds: readonly ConsoleRebuildFragment[];
}) {
  return (
    <div className="two-col">
      <section aria-labelledby="repairs-h">
        <h2 id="repairs-h">Repairs</h2>
        <table className="compact">
          <caption className="visually-hidden">Repairs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Aggregate</th>
              <th scope="col">Outcome</th>
              <th scope="col">Verification</th>
              <th scope="col">By</th>
              <th scope="col">Reason / note</th>
            </tr>
          </thead>
          <tbody>
            {repairs.map((r) => (
              <tr key={r.id} data-repair={r.id} data-aggregate={r.aggregateId ?? ''} data-verification={r.verification}>
                <td>{r.action}</td>
                <td className="mono">{r.aggregateId ?? '—'}</td>
                <td>{r.outcome}</td>
                <td>
                  <span className={`verification verification-${r.verification.toLowerCase()}`}>{r.verification}</span>
                  {r.verification === 'PENDING' ? ` (${r.verificationAttempts} checks)` : ''}
                </td>
                <td>{r.requestedBy}</td>
                <td>{[r.reason, r.outcomeNote, r.errorCode, r.errorSummary].filter(Boolean).join(' · ')}</td>
              </tr>
            ))}
            <EmptyRow show={repairs.length === 0} colSpan={6}>
              No repairs yet.
            </EmptyRow>
          </tbody>
        </table>
      </section>
      <section aria-labelledby="rebuilds-h">
        <h2 id="rebuilds-h">Rebuilds</h2>
        <table className="compact">
          <caption className="visually-hidden">Projection rebuilds, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Scope</th>
              <th scope="col">Phase</th>
              <th scope="col">Status</th>
              <th scope="col">Rows</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {rebuilds.map((b) => (
              <tr key={b.id} data-rebuild={b.id} data-status={b.status}>
                <td className="mono">
                  {b.domain} {b.scopeKey}
                </td>
                <td>{b.phase}</td>
                <td>{b.status}</td>
                <td className="num">
                  {b.sourceRows}
                  {b.quarantined ? ` (${b.quarantined} quarantined)` : ''}
                </td>
                <td>{[b.reason, b.errorCode, b.errorSummary].filter(Boolean).join(' · ')}</td>
              </tr>
            ))}
            <EmptyRow show={rebuilds.length === 0} colSpan={5}>
              No rebuilds.
            </EmptyRow>
          </tbody>
        </table>
      </section>
    </div>
  );
}
