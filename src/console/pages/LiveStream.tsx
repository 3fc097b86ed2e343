// The live stream of publication-state changes (the publicationStateChanged subscription), filtered
// by domain, states and aggregate id on the server, and each event's path of states so far.
import { useState } from 'react';
import { ConsoleStateChangesDocument, type EventDomain, type ObservedPublicationState } from '../api/generated';
import { clockTime } from '../lib/format';
import { EMPTY_STREAM, addChange, type StreamState } from '../lib/paths';
import { ErrorNote, Field, Select } from '../ui/components';
import { useConsole } from '../ui/context';
import { useSubscription } from '../ui/hooks';

export const STATES: readonly ObservedPublicationState[] = [
  'NEW',
  'PROCESSING',
  'SENT',
  'FAILED',
  'PARKED',
  'PUBLISHED_DIRECT',
  'NOT_PUBLISHED',
  'PUBLISHED',
  'DEAD_LETTER',
  'FALLBACK_STORE_FAILED',
  'PROJECTION_APPLIED',
];

export function LiveStream() {
  const { liveState } = useConsole();
  const [domain, setDomain] = useState<EventDomain | 'all'>('all');
  const [states, setStates] = useState<ObservedPublicationState[]>([]);
  const [aggregateId, setAggregateId] = useState('');
  const [stream, setStream] = useState<StreamState>(EMPTY_STREAM);
  const vars = { domain: domain === 'all' ? null : domain, states: states.length ? states : null, aggregateId: aggregateId.trim() || null };
  const error = useSubscription(ConsoleStateChangesDocument, vars, JSON.stringify(vars), (r) =>
    setStream((s) => addChange(s, r.publicationStateChanged)),
  );
  const toggle = (s: ObservedPublicationState) => setStates((cur) => (cur.includes(s) ? cur.filter((x) => x !== s) : [...cur, s]));
  return (
    <section aria-labelledby="stream-h">
      <h2 id="stream-h">Live publication state</h2>
      <p className="live-state" role="status" data-state={liveState}>
        Live connection: {liveState} · {stream.received} changes received
      </p>
      <ErrorNote error={error} what="The live stream" />
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Stream filter">
        <Select label="Domain" value={domain} options={['all', 'fitness', 'orders']} onChange={setDomain} />
        <Field label="Aggregate id" hint="exact id; empty for all">
          {(id) => <input id={id} value={aggregateId} onChange={(e) => setAggregateId(e.target.value)} maxLength={128} />}
        </Field>
        <fieldset className="states">
          <legend>States (none checked: all)</legend>
          {STATES.map((s) => (
            <label key={s} className="check">
              <input type="checkbox" checked={states.includes(s)} onChange={() => toggle(s)} /> {s}
            </label>
          ))}
        </fieldset>
        <button type="button" onClick={() => setStream(EMPTY_STREAM)}>
          Clear
        </button>
      </form>
      <div className="two-col">
        <div>
          <h3>Paths</h3>
          <ul className="paths" aria-label="Publication paths, most recent first">
            {stream.paths.slice(0, 25).map((p) => (
              <li key={p.eventId} data-aggregate={p.aggregateId} data-event={p.eventId}>
                <span className="mono">
                  {p.domain} {p.aggregateId} v{p.version}
                </span>
                : <span className="path">{p.states.join(' → ')}</span>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Changes</h3>
          <table className="compact">
            <caption className="visually-hidden">Publication-state changes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">At (UTC)</th>
                <th scope="col">Domain</th>
                <th scope="col">Aggregate</th>
                <th scope="col">Version</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Attempt</th>
              </tr>
            </thead>
            <tbody>
              {stream.changes.slice(0, 50).map((c, i) => (
                <tr key={`${c.eventId}-${c.to}-${stream.received - i}`} data-aggregate={c.aggregateId} data-to={c.to}>
                  <td>{clockTime(c.at)}</td>
                  <td>{c.domain}</td>
                  <td className="mono">{c.aggregateId}</td>
                  <td className="num">{c.version}</td>
                  <td>{c.from ?? '—'}</td>
                  <td>
                    <span className={`state state-${c.to.toLowerCase()}`}>{c.to}</span>
                  </td>
                  <td className="num">{c.attempt}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
