// The scope of a reconciliation or a rebuild: a fitness campaign (detectId, optionally one project) or
// an order window [from, to) in UTC; the level, and whether a count mismatch escalates to ids.
import { useState, type FormEvent } from 'react';
import { ApiError, request } from '../api/client';
import { ConsoleRebuildProjectionDocument, type ReconciliationLevel, type ReconciliationScopeInput } from '../api/generated';
import { utcInputToIso } from '../lib/format';
import { ConfirmDialog, ErrorNote, Field, Select } from '../ui/components';
import { useConsole } from '../ui/context';

export interface ScopeChoice {
  scope: ReconciliationScopeInput;
  level: ReconciliationLevel;
  escalate: boolean;
}

export function ScopeForm({ busy, onStart }: { busy: boolean; onStart(c: ScopeChoice): void }) {
  const { session } = useConsole();
  const [kind, setKind] = useState<'campaign' | 'window'>('campaign');
  const [detectId, setDetectId] = useState('');
  const [projectId, setProjectId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [level, setLevel] = useState<ReconciliationLevel>('IDS');
  const [escalate, setEscalate] = useState(true);
  const [invalid, setInvalid] = useState<string>();
  const [rebuildOpen, setRebuildOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [rebuildNote, setRebuildNote] = useState<string>();
  const [rebuildError, setRebuildError] = useState<ApiError>();

  function scope(): ReconciliationScopeInput | undefined {
    if (kind === 'campaign') {
      if (!/^\d+$/.test(detectId)) return (setInvalid('Campaign (detectId) must be a whole number.'), undefined);
      if (projectId && !/^\d+$/.test(projectId)) return (setInvalid('Project must be a whole number or empty.'), undefined);
      return { campaign: { detectId: Number(detectId), projectId: projectId ? Number(projectId) : null } };
    }
    const f = utcInputToIso(from);
    const t = utcInputToIso(to);
    if (!f || !t) return (setInvalid('Both window bounds are needed (UTC).'), undefined);
    return { orderWindow: { from: f, to: t } };
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setInvalid(undefined);
    const s = scope();
    if (s) onStart({ scope: s, level, escalate });
  };

  async function rebuild() {
    const s = scope();
    if (!s) return setRebuildOpen(false);
    setRebuildError(undefined);
    setRebuildNote('Rebuilding… (the gateway waits for the swap before answering)');
    try {
      const r = await request(
        ConsoleRebuildProjectionDocument,
        { domain: s.campaign ? 'fitness' : 'orders', scope: s, reason },
        session.token,
      );
      setRebuildNote(
        `Rebuild ${r.rebuildProjection.id}: ${r.rebuildProjection.status} at phase ${r.rebuildProjection.phase}; follow it under Rebuilds.`,
      );
    } catch (e) {
      setRebuildError(e as ApiError);
      setRebuildNote(undefined);
    } finally {
      setRebuildOpen(false);
    }
  }

  return (
    <section aria-labelledby="start-h">
      <h2 id="start-h">Start a reconciliation</h2>
      <form className="toolbar" onSubmit={submit} aria-label="Reconciliation scope">
        <fieldset className="inline">
          <legend>Scope</legend>
          <label className="check">
            <input type="radio" name="scope-kind" checked={kind === 'campaign'} onChange={() => setKind('campaign')} /> Fitness campaign
          </label>
          <label className="check">
            <input type="radio" name="scope-kind" checked={kind === 'window'} onChange={() => setKind('window')} /> Order window
          </label>
        </fieldset>
        {kind === 'campaign' ? (
          <>
            <Field label="Campaign (detectId)">
              {(id) => <input id={id} inputMode="numeric" value={detectId} onChange={(e) => setDetectId(e.target.value)} required />}
            </Field>
            <Field label="Project (optional)">
              {(id) => <input id={id} inputMode="numeric" value={projectId} onChange={(e) => setProjectId(e.target.value)} />}
            </Field>
          </>
        ) : (
          <>
            <Field label="From (UTC)">
              {(id) => <input id={id} type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} required />}
            </Field>
            <Field label="To (UTC)">
              {(id) => <input id={id} type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} required />}
            </Field>
          </>
        )}
        <Select
          label="Level"
          value={level}
          options={[
            ['COUNTS', 'COUNTS (logical counts)'],
            ['IDS', 'IDS (ids, versions, deletions)'],
            ['CONTENT', 'CONTENT (digests)'],
          ]}
          onChange={setLevel}
        />
        <label className="check">
          <input type="checkbox" checked={escalate} onChange={(e) => setEscalate(e.target.checked)} /> Escalate to IDS when counts differ
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Reconciling…' : 'Start reconciliation'}
        </button>
        <button type="button" onClick={() => (setInvalid(undefined), setRebuildOpen(true))}>
          Rebuild this scope…
        </button>
      </form>
      {invalid ? (
        <p className="error" role="alert">
          {invalid}
        </p>
      ) : null}
      {rebuildNote ? <p role="status">{rebuildNote}</p> : null}
      <ErrorNote error={rebuildError} what="Rebuild" />
      <ConfirmDialog
        open={rebuildOpen}
        title="Rebuild this scope of the projection?"
        confirmLabel="Rebuild"
        onConfirm={() => void rebuild()}
        onCancel={() => setRebuildOpen(false)}
        busy={!reason.trim()}
      >
        <p>The scope is rebuilt from the authoritative store into a shadow table, validated by digests, swapped in and verified.</p>
        <Field label="Reason (recorded in the audit trail)">
          {(id) => <textarea id={id} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} required />}
        </Field>
      </ConfirmDialog>
    </section>
  );
}
