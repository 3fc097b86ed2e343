// Reconciliation: start a comparison of one scope (a fitness campaign or an order window) at a level,
// see its runs and the discrepancies by kind, repair selected ones or remove unexpected rows with a
// reason, and follow repairs and rebuilds until their verification.
import { useState } from 'react';
import { request } from '../api/client';
import { ConsoleReconcileDocument, type ConsoleRunFragment } from '../api/generated';
import { ErrorNote } from '../ui/components';
import { EmptyRow } from '../ui/tables';
import { useConsole } from '../ui/context';
import { useAction } from '../ui/hooks';
import { Discrepancies } from './Discrepancies';
import { ScopeForm, type ScopeChoice } from './ScopeForm';

export function Reconciliation() {
  const { session } = useConsole();
  const [runs, setRuns] = useState<ConsoleRunFragment[]>([]);
  const action = useAction();
  const [scopeKey, setScopeKey] = useState<string>();

  async function start(c: ScopeChoice) {
    await action.run(async () => {
      const r = await request(ConsoleReconcileDocument, { scope: c.scope, level: c.level, escalate: c.escalate }, session.token);
      setRuns((cur) => [r.reconcile.run, ...cur].slice(0, 50));
      setScopeKey(r.reconcile.run.scopeKey);
    });
  }

  return (
    <>
      <h1>Reconciliation</h1>
      <ScopeForm busy={action.busy} onStart={(c) => void start(c)} />
      <ErrorNote error={action.error} what="Reconciliation" />
      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Runs</h2>
        <p className="muted small">
          Runs started from this tab, newest first (this API version has no query listing earlier or scheduled runs).
        </p>
        <table>
          <caption className="visually-hidden">Reconciliation runs</caption>
          <thead>
            <tr>
              <th scope="col">Scope</th>
              <th scope="col">Level (reached)</th>
              <th scope="col">Outcome</th>
              <th scope="col">Discrepancies</th>
              <th scope="col" title="Left to the next run: changed after the run's snapshot / still in flight">
                Excluded (changed / in flight)
              </th>
              <th scope="col">Segments (source / target)</th>
              <th scope="col">Buckets mismatched</th>
              <th scope="col">Duration</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id} data-run={r.id} data-outcome={r.outcome ?? 'RUNNING'}>
                <td className="mono">{r.scopeKey}</td>
                <td>
                  {r.levelRequested} ({r.levelReached ?? '—'})
                </td>
                <td>
                  <span className={`outcome outcome-${(r.outcome ?? 'running').toLowerCase()}`}>{r.outcome ?? 'RUNNING'}</span>
                </td>
                <td className="num">{r.discrepanciesFound}</td>
                <td className="num">
                  {r.excludedChangedAfterSnapshot} / {r.excludedInFlight}
                </td>
                <td>{r.counts.map((c) => `${c.segment}: ${c.source} / ${c.target}`).join(', ') || '—'}</td>
                <td className="num">
                  {r.bucketsMismatched} of {r.bucketsCompared}
                </td>
                <td className="num">{r.durationMs ?? '—'} ms</td>
                <td>{[r.note, r.errorCode, r.errorSummary].filter(Boolean).join(' · ')}</td>
              </tr>
            ))}
            <EmptyRow show={runs.length === 0} colSpan={9}>
              No run started yet.
            </EmptyRow>
          </tbody>
        </table>
      </section>
      <Discrepancies scopeKey={scopeKey} />
    </>
  );
}
