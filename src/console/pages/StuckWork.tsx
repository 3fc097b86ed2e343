// Stuck work: kafka-first dead letters and parked outbox events with their safe error summaries;
// select some (or all matching), replay after a confirmation, and watch their new states arrive.
import { useState } from 'react';
import { DeadLetters } from './DeadLetters';
import { ParkedEvents } from './ParkedEvents';
import { useRecentPaths, WatchPanel, type Watched } from './Watch';

export function StuckWork() {
  const [watched, setWatched] = useState<Watched[]>([]);
  const [stream, error] = useRecentPaths();
  const watch = (w: Watched[]) => setWatched((cur) => [...w, ...cur.filter((c) => !w.some((x) => x.eventId === c.eventId))].slice(0, 200));
  return (
    <>
      <h1>Stuck work</h1>
      <WatchPanel watched={watched} stream={stream} error={error} />
      <DeadLetters onReplayed={watch} />
      <ParkedEvents onReplayed={watch} />
    </>
  );
}
