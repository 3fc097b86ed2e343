// After a replay: the replayed events and the states they reach, live. The page listens to every
// state change from the moment it opens (not only after the replay), so a relay that is faster than
// the browser cannot slip a transition past it.
import { useState } from 'react';
import { ConsoleStateChangesDocument } from '../api/generated';
import { EMPTY_STREAM, addChange, type StreamState } from '../lib/paths';
import { ErrorNote } from '../ui/components';
import { useSubscription } from '../ui/hooks';

export interface Watched {
  eventId: string;
  domain: string;
  aggregateId: string;
  /** The state the replay put it in. */
  start: string;
}

/** Keeps the paths of the most recent events seen on the stream (all domains). */
export function useRecentPaths(): [StreamState, ReturnType<typeof useSubscription>] {
  const [stream, setStream] = useState<StreamState>(EMPTY_STREAM);
  const vars = { domain: null, states: null, aggregateId: null };
  const error = useSubscription(ConsoleStateChangesDocument, vars, 'all', (r) =>
    setStream((s) => addChange(s, r.publicationStateChanged, 2000)),
  );
  return [stream, error];
}

export function WatchPanel({
  watched,
  stream,
  error,
}: {
  watched: Watched[];
  stream: StreamState;
  error?: ReturnType<typeof useSubscription>;
}) {
  if (!watched.length) return null;
  return (
    <section aria-labelledby="watch-h" className="watch">
      <h2 id="watch-h">Replayed: watching their states</h2>
      <ErrorNote error={error} what="Watching states" />
      <table>
        <caption className="visually-hidden">Replayed events and their latest states</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Domain</th>
            <th scope="col">Aggregate</th>
            <th scope="col">Latest state</th>
            <th scope="col">Path seen live</th>
          </tr>
        </thead>
        <tbody>
          {watched.map((w) => {
            const p = stream.paths.find((x) => x.eventId === w.eventId);
            const latest = p ? p.states[p.states.length - 1]! : w.start;
            return (
              <tr key={w.eventId} data-event={w.eventId} data-state={latest}>
                <td className="mono">{w.eventId}</td>
                <td>{w.domain}</td>
                <td className="mono">{w.aggregateId}</td>
                <td>
                  <span className={`state state-${latest.toLowerCase()}`}>{latest}</span>
                </td>
                <td className="path">{p ? p.states.join(' → ') : `${w.start} (waiting for a relay)`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
