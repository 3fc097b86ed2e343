// A steady stream of corrections of existing fitness results through the real write path (GraphQL ->
// shard + outbox -> relay -> Kafka -> projector): the "campaign being edited" of a live scope. An open
// loop: every tick starts the corrections the schedule owes, each of the next result not already being
// corrected (one correction per result at a time, so each names the version it read).
import { CorrectFitnessResultDocument } from '../generated/graphql';
import { execute } from './graphqlClient';
import { openLoop } from './openLoop';

export interface CorrectionLoad {
  ok(): number;
  failed(): number;
  /** A few distinct failure codes (never payloads). */
  failures(): string[];
  /** Stops starting corrections and waits for those in flight. */
  stop(): Promise<{ ok: number; failed: number }>;
}

export function startCorrectionLoad(o: {
  url: string;
  headers: Record<string, string>;
  /** The results to correct, with their current versions. */
  results: { dataId: string; version: number }[];
  perSecond: number;
}): CorrectionLoad {
  let ok = 0;
  let failed = 0;
  let next = 0;
  const failures = new Set<string>();
  const busy = new Set<string>();
  const current = new Map(o.results.map((r) => [r.dataId, r.version]));
  const ids = o.results.map((r) => r.dataId);
  const correct = async (dataId: string, i: number) => {
    busy.add(dataId);
    try {
      const vars = { dataId, expectedVersion: current.get(dataId)!, result: `3.${String(100 + (i % 900))}`, unit: 'm' };
      const r = await execute(o.url, CorrectFitnessResultDocument, vars, o.headers);
      if (r.errors || !r.data) {
        failed++;
        if (failures.size < 5) failures.add(String(r.errors?.[0]?.extensions?.code ?? `HTTP ${r.status}`));
      } else {
        ok++;
        current.set(dataId, r.data.correctFitnessResult.result.version);
      }
    } catch (err) {
      failed++;
      if (failures.size < 5) failures.add((err instanceof Error ? err.message : String(err)).slice(0, 160));
    } finally {
      busy.delete(dataId);
    }
  };
  // Each slot corrects the next result not already being corrected; none free: the slot waits.
  const loop = openLoop(o.perSecond, (i) => {
    for (let tries = 0; tries < ids.length; tries++) {
      const id = ids[next++ % ids.length]!;
      if (!busy.has(id)) return correct(id, i);
    }
    return undefined;
  });
  return {
    ok: () => ok,
    failed: () => failed,
    failures: () => [...failures],
    async stop() {
      await loop.stop();
      return { ok, failed };
    },
  };
}
