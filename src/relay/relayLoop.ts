// The long-running relay loop over one table of one store: relayOnce (relayEngine.ts) again and again
// until stopped, idle-looking, circuit-aware and paced, with helper loops woken by a backlog signal.
import type { PublicationTable } from '../publication/relayPort/publicationTable';
import { sleep, type Stoppable } from '../shared/lifecycle';
import { summarizeError } from '../shared/redact';
import type { BacklogSignal } from './backlogSignal';
import { relayOnce } from './relayEngine';
import type { RelayDeps } from './relayDeps';

export interface RelayLoop extends Stoppable {
  /** Resolves when the loop has ended (after stop()). */
  readonly done: Promise<void>;
}

export interface RelayLoopOptions {
  /**
   * Extra loops on a store share one backlog signal: the first loop polls; a helper sleeps until some
   * loop claims a full batch, works while its own claims come back full, and sleeps again, so an idle
   * store costs one loop's polling however many loops drain a backlog.
   */
  backlog?: BacklogSignal;
  helper?: boolean;
}

/**
 * Runs relayOnce in a loop until stop(); stop() lets the in-flight batch finish (drain). An idle loop
 * first looks (hasDue, one cheap statement) and claims only when there is something to take. While the
 * circuit is open it claims nothing; when it closes, batches start at 1/16 of the batch size and double
 * after every pass that delivered, so a backlog built during an outage is caught up at a growing pace.
 */
export function startRelayLoop(table: PublicationTable, d: RelayDeps, o: RelayLoopOptions = {}): RelayLoop {
  if (o.helper && !o.backlog) throw new Error('a helper relay loop needs the backlog signal that wakes it');
  const abort = new AbortController();
  const slowStart = Math.max(1, Math.ceil(d.batchSize / 16));
  let limit = d.batchSize;
  let storeFailures = 0;
  let idle = o.helper === true;
  const done = (async () => {
    while (!abort.signal.aborted) {
      if (d.circuit.state === 'open') {
        await d.circuit.whenClosed(abort.signal);
        limit = slowStart;
        idle = o.helper === true;
        continue;
      }
      if (o.helper && idle) {
        await o.backlog!.wait(abort.signal);
        idle = false;
        continue;
      }
      let pause = 0;
      try {
        if (idle && !(await table.hasDue())) {
          if (!abort.signal.aborted) await sleep(d.pollIntervalMs, abort.signal);
          continue;
        }
        const r = await relayOnce(table, d, limit);
        storeFailures = 0;
        idle = r.claimed === 0;
        if (r.sent > 0) limit = Math.min(d.batchSize, limit * 2);
        if (r.claimed >= d.batchSize) o.backlog?.notify();
        else if (o.helper) idle = true; // the backlog is drained (or failing): back to waiting
        if (r.claimed === 0) pause = d.pollIntervalMs;
      } catch (err) {
        // The store itself failed (claim or completion). Claimed rows keep their lease and are
        // reclaimed after it expires; back off so a down store is not hammered.
        idle = o.helper === true;
        pause = (d.storeBackoff ?? d.policy).delayMs(++storeFailures);
        d.logger.warn({ table: table.table, store: table.store.name, error: summarizeError(err) }, 'relay iteration failed; backing off');
      }
      if (pause && !(o.helper && idle)) await sleep(pause, abort.signal);
    }
  })();
  return {
    done,
    async stop() {
      abort.abort();
      await done;
    },
  };
}
