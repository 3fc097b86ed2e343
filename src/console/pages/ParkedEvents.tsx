// Parked outbox events (attempts used up), filtered by domain, store, error code or aggregate; replay
// returns them to NEW with their original event id and version.
import { useState } from 'react';
import { request } from '../api/client';
import { ConsoleParkedEventsDocument, ConsoleReplayParkedEventsDocument, type ParkedEventFilter } from '../api/generated';
import { ConfirmDialog, ErrorNote, Field, Select } from '../ui/components';
import { useConsole } from '../ui/context';
import { useAction, usePolling } from '../ui/hooks';
import { useSelection } from '../ui/selection';
import { EmptyRow, ErrorCell, SelectAllHeader, SelectCell } from '../ui/tables';
import type { Watched } from './Watch';

const PAGE = 50;

export function ParkedEvents({ onReplayed }: { onReplayed(w: Watched[]): void }) {
  const { session } = useConsole();
  const [domain, setDomain] = useState<'all' | 'fitness' | 'orders'>('all');
  const [store, setStore] = useState<'all' | 'mysql' | 'postgres'>('all');
  const [errorCode, setErrorCode] = useState('');
  const [aggregateId, setAggregateId] = useState('');
  const filter: ParkedEventFilter = {
    domain: domain === 'all' ? null : domain,
    store: store === 'all' ? null : store,
    errorCode: errorCode.trim() || null,
    aggregateId: aggregateId.trim() || null,
  };
  const sel = useSelection();
  const [confirm, setConfirm] = useState<'selected' | 'filter' | undefined>();
  const [result, setResult] = useState<string>();
  const action = useAction();
  const list = usePolling(() => request(ConsoleParkedEventsDocument, { filter, first: PAGE }, session.token), 5000, JSON.stringify(filter));
  const rows = list.data?.parkedEvents ?? [];
  const pageIds = rows.map((r) => r.eventId);

  async function replay() {
    await action.run(async () => {
      const f: ParkedEventFilter = confirm === 'selected' ? { eventIds: [...sel.selected] } : filter;
      const r = await request(
        ConsoleReplayParkedEventsDocument,
        { filter: f, limit: confirm === 'selected' ? sel.selected.size : 1000 },
        session.token,
      );
      onReplayed(
        r.replayParkedEvents.events.map((e) => ({ eventId: e.eventId, domain: e.domain, aggregateId: e.aggregateId, start: 'NEW' })),
      );
      setResult(`${r.replayParkedEvents.count} parked event(s) returned to NEW.`);
      sel.clear();
      list.refresh();
    });
    setConfirm(undefined);
  }

  return (
    <section aria-labelledby="parked-h">
      <h2 id="parked-h">Parked events (outbox)</h2>
      <form className="toolbar" onSubmit={(e) => e.preventDefault()} aria-label="Parked events filter">
        <Select label="Domain" value={domain} options={['all', 'fitness', 'orders']} onChange={setDomain} />
        <Select label="Store" value={store} options={['all', 'mysql', 'postgres']} onChange={setStore} />
        <Field label="Error code">
          {(id) => <input id={id} value={errorCode} onChange={(e) => setErrorCode(e.target.value)} maxLength={64} />}
        </Field>
        <Field label="Aggregate id">
          {(id) => <input id={id} value={aggregateId} onChange={(e) => setAggregateId(e.target.value)} maxLength={128} />}
        </Field>
        <button type="button" className="primary" disabled={sel.selected.size === 0} onClick={() => setConfirm('selected')}>
          Replay selected ({sel.selected.size})
        </button>
        <button type="button" disabled={rows.length === 0} onClick={() => setConfirm('filter')}>
          Replay all matching the filter
        </button>
      </form>
      <p className="muted small">
        The oldest {PAGE} matching events. (This API version has no cursor on parked events, so further pages are reached by narrowing the
        filter or replaying.)
      </p>
      <ErrorNote error={list.error} what="Reading parked events" />
      <ErrorNote error={action.error} what="Replay" />
      {result ? <p role="status">{result}</p> : null}
      <table>
        <caption className="visually-hidden">Parked outbox events, oldest first</caption>
        <thead>
          <tr>
            <SelectAllHeader ids={pageIds} sel={sel} label="Select every parked event shown" />
            <th scope="col">Event</th>
            <th scope="col">Domain</th>
            <th scope="col">Store</th>
            <th scope="col">Aggregate</th>
            <th scope="col">Attempts</th>
            <th scope="col">Replays</th>
            <th scope="col">Last error</th>
            <th scope="col">Parked at</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.eventId} data-event={r.eventId}>
              <SelectCell id={r.eventId} label={`Select ${r.eventId}`} sel={sel} />
              <td className="mono">{r.eventId}</td>
              <td>{r.domain}</td>
              <td>
                {r.store} {r.store === 'mysql' ? `shard ${r.shard}` : ''}
              </td>
              <td className="mono">{r.aggregateId}</td>
              <td className="num">{r.attempts}</td>
              <td className="num">{r.replayCount}</td>
              <ErrorCell code={r.lastErrorCode} summary={r.lastErrorSummary} />
              <td>{r.parkedAt ?? ''}</td>
            </tr>
          ))}
          <EmptyRow show={!list.loading && rows.length === 0} colSpan={9}>
            No parked events match.
          </EmptyRow>
        </tbody>
      </table>
      <ConfirmDialog
        open={confirm !== undefined}
        title="Replay parked events?"
        confirmLabel="Replay"
        busy={action.busy}
        onConfirm={() => void replay()}
        onCancel={() => setConfirm(undefined)}
      >
        <p>
          {confirm === 'selected' ? `${sel.selected.size} selected parked event(s)` : 'Every parked event matching the filter (up to 1000)'}{' '}
          will return to NEW with their attempts reset, for the relays to deliver again.
        </p>
      </ConfirmDialog>
    </section>
  );
}
