// Discrepancies by kind, with the two operator actions (repair by kind; the explicit, audited removal
// of unexpected rows with a reason), and the repairs and rebuilds that follow, polled until verified.
import { useState } from 'react';
import { request } from '../api/client';
import {
  ConsoleReconciliationDocument,
  ConsoleRemoveUnexpectedRowsDocument,
  ConsoleRepairDocument,
  type DiscrepancyKind,
  type DiscrepancyStatus,
} from '../api/generated';
import { countBy } from '../lib/format';
import { ConfirmDialog, ErrorNote, Field, Select } from '../ui/components';
import { useConsole } from '../ui/context';
import { useAction, usePolling } from '../ui/hooks';
import { useSelection } from '../ui/selection';
import { EmptyRow, SelectAllHeader, SelectCell } from '../ui/tables';
import { RepairsAndRebuilds } from './RepairsAndRebuilds';

const KINDS: readonly DiscrepancyKind[] = ['MISSING', 'STALE_VERSION', 'DELETION_NOT_APPLIED', 'CONTENT_MISMATCH', 'UNEXPECTED_ROW'];

export function Discrepancies({ scopeKey }: { scopeKey?: string }) {
  const { session } = useConsole();
  const [status, setStatus] = useState<DiscrepancyStatus | 'all'>('OPEN');
  const [kind, setKind] = useState<DiscrepancyKind | 'all'>('all');
  const [onlyScope, setOnlyScope] = useState(false);
  const filter = {
    statuses: status === 'all' ? null : [status],
    kinds: kind === 'all' ? null : [kind],
    scopeKey: onlyScope && scopeKey ? scopeKey : null,
  };
  const data = usePolling(
    () => request(ConsoleReconciliationDocument, { filter, first: 100 }, session.token),
    3000,
    JSON.stringify(filter),
  );
  const rows = data.data?.discrepancies ?? [];
  const sel = useSelection();
  const selectedRows = rows.filter((r) => sel.selected.has(r.id));
  const repairable = selectedRows.filter((r) => r.kind !== 'UNEXPECTED_ROW' && r.status === 'OPEN');
  const unexpected = selectedRows.filter((r) => r.kind === 'UNEXPECTED_ROW' && r.status === 'OPEN');
  const [confirm, setConfirm] = useState<'repair' | 'remove' | undefined>();
  const [reason, setReason] = useState('');
  const action = useAction();
  const [note, setNote] = useState<string>();

  async function act() {
    setNote(confirm === 'repair' ? 'Repairing… (waits briefly for verification)' : 'Removing… (verified by re-comparison)');
    const ok = await action.run(async () => {
      const done =
        confirm === 'repair'
          ? (await request(ConsoleRepairDocument, { ids: repairable.map((r) => r.id) }, session.token)).repair
          : (await request(ConsoleRemoveUnexpectedRowsDocument, { ids: unexpected.map((r) => r.id), reason }, session.token))
              .removeUnexpectedRows;
      setNote(
        `${done.length} repair(s): ${done.map((r) => `${r.action} ${r.aggregateId ?? ''} ${r.outcome}, verification ${r.verification}`).join('; ')}.`,
      );
      sel.clear();
      setReason('');
      data.refresh();
    });
    if (!ok) setNote(undefined);
    setConfirm(undefined);
  }

  return (
    <>
      <section aria-labelledby="disc-h">
        <h2 id="disc-h">Discrepancies</h2>
        <ul className="chips" aria-label="Discrepancies by kind">
          {countBy(rows, (r) => r.kind, KINDS).map(([k, n]) => (
            <li key={k} data-kind={k}>
              <button type="button" aria-pressed={kind === k} onClick={() => setKind(kind === k ? 'all' : (k as DiscrepancyKind))}>
                {k.replace(/_/g, ' ').toLowerCase()} <strong>{n}</strong>
              </button>
            </li>
          ))}
        </ul>
        <div className="toolbar">
          <Select label="Status" value={status} options={['OPEN', 'REPAIRING', 'RESOLVED', 'all']} onChange={setStatus} />
          <Select label="Kind" value={kind} options={['all', ...KINDS]} onChange={setKind} />
          <label className="check">
            <input type="checkbox" checked={onlyScope} disabled={!scopeKey} onChange={(e) => setOnlyScope(e.target.checked)} /> Only the
            scope of the last run
          </label>
          <button type="button" className="primary" disabled={repairable.length === 0} onClick={() => setConfirm('repair')}>
            Repair selected ({repairable.length})
          </button>
          <button type="button" disabled={unexpected.length === 0} onClick={() => setConfirm('remove')}>
            Remove unexpected rows ({unexpected.length})…
          </button>
        </div>
        <ErrorNote error={data.error} what="Reading discrepancies" />
        <ErrorNote error={action.error} what={confirm === 'remove' ? 'Removal' : 'Repair'} />
        {note ? <p role="status">{note}</p> : null}
        <table>
          <caption className="visually-hidden">Discrepancies, newest first</caption>
          <thead>
            <tr>
              <SelectAllHeader ids={rows.map((r) => r.id)} sel={sel} label="Select every discrepancy shown" />
              <th scope="col">Kind</th>
              <th scope="col">Domain</th>
              <th scope="col">Scope</th>
              <th scope="col">Aggregate</th>
              <th scope="col">Source / target version</th>
              <th scope="col">Differing fields</th>
              <th scope="col">Status</th>
              <th scope="col">Seen</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-discrepancy={r.id} data-aggregate={r.aggregateId} data-kind={r.kind} data-status={r.status}>
                <SelectCell id={r.id} label={`Select ${r.kind} ${r.aggregateId}`} sel={sel} />
                <td>{r.kind}</td>
                <td>{r.domain}</td>
                <td className="mono">{r.scopeKey}</td>
                <td className="mono">{r.aggregateId}</td>
                <td className="num">
                  {r.sourceVersion ?? '—'} / {r.targetVersion ?? '—'}
                </td>
                <td>{r.differingFields.join(', ')}</td>
                <td>
                  {r.status}
                  {r.resolution ? ` (${r.resolution})` : ''}
                </td>
                <td className="num">{r.seenCount}×</td>
              </tr>
            ))}
            <EmptyRow show={!data.loading && rows.length === 0} colSpan={9}>
              No discrepancies match.
            </EmptyRow>
          </tbody>
        </table>
        <ConfirmDialog
          open={confirm !== undefined}
          title={confirm === 'remove' ? 'Remove unexpected rows?' : 'Repair the selected discrepancies?'}
          confirmLabel={confirm === 'remove' ? 'Remove rows' : 'Repair'}
          busy={action.busy || (confirm === 'remove' && !reason.trim())}
          onConfirm={() => void act()}
          onCancel={() => setConfirm(undefined)}
        >
          {confirm === 'remove' ? (
            <>
              <p>{unexpected.length} projection row(s) with no source will be deleted. This is audited and verified by re-comparison.</p>
              <Field label="Reason (required, recorded in the audit trail)">
                {(id) => <textarea id={id} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} required />}
              </Field>
            </>
          ) : (
            <p>
              {repairable.length} discrepancy(ies) will be repaired by kind: missing and stale versions are replayed with their existing
              version, deletions get their tombstone, content mismatches are rebuilt. Unexpected rows are never touched by a repair.
            </p>
          )}
        </ConfirmDialog>
      </section>
      <RepairsAndRebuilds repairs={data.data?.repairs ?? []} rebuilds={data.data?.projectionRebuilds ?? []} />
    </>
  );
}
