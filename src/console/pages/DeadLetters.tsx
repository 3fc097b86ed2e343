// Kafka-first dead letters (event_publications rows in DEAD_LETTER), keyset-paginated with the API's
// cursor; replay moves them back to NOT_PUBLISHED for the relay.
import { useState } from 'react';
import { request } from '../api/client';
import { ConsoleDeadLettersDocument, ConsoleReplayDeadLettersDocument, type EventDomain } from '../api/generated';
import { ConfirmDialog, ErrorNote, Select } from '../ui/components';
import { useConsole } from '../ui/context';
import { useAction, usePolling } from '../ui/hooks';
import { useSelection } from '../ui/selection';
import { EmptyRow, ErrorCell, SelectAllHeader, SelectCell } from '../ui/tables';
import type { Watched } from './Watch';

const PAGE = 25;

export function DeadLetters({ onReplayed }: { onReplayed(w: Watched[]): void }) {
  const { session } = useConsole();
  const [domain, setDomain] = useState<EventDomain>('orders');
  // Cursors of the pages before this one (keyset: "previous" goes back to a cursor already seen).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const sel = useSelection();
  const [confirm, setConfirm] = useState<'selected' | 'all' | undefined>();
  const [result, setResult] = useState<string>();
  const action = useAction();
  const list = usePolling(
    () => request(ConsoleDeadLettersDocument, { domain, first: PAGE, after }, session.token),
    5000,
    `${domain}/${after}`,
  );
  const nodes = list.data?.deadLetters.nodes ?? [];
  const pageIds = nodes.map((n) => n.eventId);

  async function replay() {
    await action.run(async () => {
      const ids = confirm === 'selected' ? [...sel.selected] : undefined;
      const r = await request(ConsoleReplayDeadLettersDocument, { filter: { domain, eventIds: ids, limit: 1000 } }, session.token);
      const known = new Map(nodes.map((n) => [n.eventId, n]));
      onReplayed(
        r.replayDeadLetters.eventIds.map((eventId) => ({
          eventId,
          domain,
          aggregateId: known.get(eventId)?.aggregateId ?? '',
          start: 'NOT_PUBLISHED',
        })),
      );
      setResult(`${r.replayDeadLetters.replayedCount} dead letter(s) moved back to NOT_PUBLISHED.`);
      sel.clear();
      setCursors([null]);
      list.refresh();
    });
    setConfirm(undefined);
  }

  return (
    <section aria-labelledby="dead-h">
      <h2 id="dead-h">Dead letters (kafka-first)</h2>
      <div className="toolbar">
        <Select
          label="Domain"
          value={domain}
          options={['orders', 'fitness']}
          onChange={(d) => (setDomain(d), setCursors([null]), sel.clear())}
        />
        <button type="button" className="primary" disabled={sel.selected.size === 0} onClick={() => setConfirm('selected')}>
          Replay selected ({sel.selected.size})
        </button>
        <button type="button" disabled={nodes.length === 0} onClick={() => setConfirm('all')}>
          Replay all {domain} dead letters
        </button>
      </div>
      <ErrorNote error={list.error} what="Reading dead letters" />
      <ErrorNote error={action.error} what="Replay" />
      {result ? <p role="status">{result}</p> : null}
      <table>
        <caption className="visually-hidden">Dead letters of {domain}, oldest first</caption>
        <thead>
          <tr>
            <SelectAllHeader ids={pageIds} sel={sel} label="Select every dead letter on this page" />
            <th scope="col">Event</th>
            <th scope="col">Aggregate</th>
            <th scope="col">Version</th>
            <th scope="col">Source</th>
            <th scope="col">Relay attempts</th>
            <th scope="col">Replays</th>
            <th scope="col">Last error</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <tr key={n.eventId} data-event={n.eventId}>
              <SelectCell id={n.eventId} label={`Select ${n.eventId}`} sel={sel} />
              <td className="mono">{n.eventId}</td>
              <td className="mono">{n.aggregateId}</td>
              <td className="num">{n.version}</td>
              <td>{n.source}</td>
              <td className="num">{n.relayAttempts}</td>
              <td className="num">{n.replayCount}</td>
              <ErrorCell code={n.lastErrorCode} summary={n.lastErrorSummary} />
              <td>{n.createdAt}</td>
            </tr>
          ))}
          <EmptyRow show={!list.loading && nodes.length === 0} colSpan={9}>
            No dead letters in {domain}.
          </EmptyRow>
        </tbody>
      </table>
      <div className="pager">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <button
          type="button"
          disabled={!list.data?.deadLetters.hasNextPage}
          onClick={() => setCursors((c) => [...c, list.data!.deadLetters.endCursor ?? null])}
        >
          Next page
        </button>
      </div>
      <ConfirmDialog
        open={confirm !== undefined}
        title="Replay dead letters?"
        confirmLabel="Replay"
        busy={action.busy}
        onConfirm={() => void replay()}
        onCancel={() => setConfirm(undefined)}
      >
        <p>
          {confirm === 'selected'
            ? `${sel.selected.size} selected dead letter(s)`
            : `Every ${domain} dead letter (up to 1000, oldest first)`}{' '}
          will go back to NOT_PUBLISHED with a fresh budget of relay attempts. Their event ids and versions stay the same, so consumers
          deduplicate them.
        </p>
      </ConfirmDialog>
    </section>
  );
}
