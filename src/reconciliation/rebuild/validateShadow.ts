// VALIDATE, the last phase before readers switch to a rebuild's shadow. The scope is compared with the
// authoritative stores by CONTENT under the per-aggregate snapshot rule of every reconciliation
// (snapshot/compareSnapshot.ts): each aggregate is judged at the version one consistent source snapshot
// holds, after the shadow caught up with the live table (shadowCatchUp, right before each target scan).
// An aggregate the shadow holds at a newer version changed after the snapshot (the projector applied it,
// the catch-up copied it); one whose newer version is still on its way is in flight; both are excluded
// from this check, counted, and judged again by the verification after the swap. So a scope being edited
// validates CLEAN; only real differences (content, missing, unexpected) fail it, and readers stay on the
// live table. The copied rest of the table (outside the scope) is checked by versions: every aggregate
// the live table held before the last catch-up round is in the shadow at the same or a newer version.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { sleep } from '../../shared/lifecycle';
import type { CompareDeps, CompareResult } from '../compareScope';
import type { Scope } from '../scope';
import { compareSnapshot } from '../snapshot/compareSnapshot';
import type { ProjectionMapping } from '../target/projectionMapping';
import type { CatchUpReport, ShadowCatchUp } from './shadowCatchUp';
import { aggregatesBehind } from './sql/aggregatesBehind';

/** Checks repeated when the first says the system is busy rather than wrong (here and after the swap). */
export const SETTLE_ROUNDS = 3;
export const SETTLE_PAUSE_MS = 500;

/** Runs `check` up to SETTLE_ROUNDS times while `busy` says its answer is a busy system's, not a verdict. */
export async function settled<T>(check: () => Promise<T>, busy: (t: T) => boolean, signal?: AbortSignal, pauseMs = 0): Promise<T> {
  let answer = await check();
  for (let round = 1; round < SETTLE_ROUNDS && busy(answer) && !signal?.aborted; round++) {
    if (pauseMs) await sleep(pauseMs, signal);
    answer = await check();
  }
  return answer;
}

export interface ShadowValidation {
  scope: {
    outcome: CompareResult['outcome'];
    note: string;
    discrepancies: number;
    excludedChangedAfterSnapshot: number;
    excludedInFlight: number;
  };
  outsideScopeBehind: number;
  catchUp: CatchUpReport;
}

export async function validateShadow(o: {
  compare: Omit<CompareDeps, 'table' | 'beforeTargetScan'>;
  ch: ClickHouseClient;
  database: string;
  live: string;
  shadow: string;
  mapping: ProjectionMapping;
  scope: Scope;
  catchUp: ShadowCatchUp;
  marginMs: number;
}): Promise<{ ok: boolean; validation: ShadowValidation }> {
  const signal = o.compare.signal;
  const checked = await settled(
    () => compareSnapshot({ ...o.compare, table: o.shadow, beforeTargetScan: () => o.catchUp.round() }, o.scope, 'CONTENT', false),
    (r) => r.outcome === 'CATCHING_UP',
    signal,
  );
  // A row an insert in flight at the last round had not yet committed: another round picks it up.
  const behind = () => aggregatesBehind(o.ch, o.database, o.live, o.shadow, o.mapping, o.scope, o.catchUp.lastRoundMs() - o.marginMs);
  let outsideScopeBehind = await behind();
  if (outsideScopeBehind > 0)
    outsideScopeBehind = await settled(
      async () => {
        await o.catchUp.round();
        return behind();
      },
      (n) => n > 0,
      signal,
      SETTLE_PAUSE_MS,
    );
  const validation: ShadowValidation = {
    scope: {
      outcome: checked.outcome,
      note: checked.note,
      discrepancies: checked.discrepancies.length,
      excludedChangedAfterSnapshot: checked.excluded?.changedAfterSnapshot.length ?? 0,
      excludedInFlight: checked.excluded?.inFlight.length ?? 0,
    },
    outsideScopeBehind,
    catchUp: o.catchUp.report(),
  };
  return { ok: checked.outcome === 'CLEAN' && outsideScopeBehind === 0, validation };
}
