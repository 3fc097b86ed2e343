// Controlled rebuild of one scope of a projection, for same-version corruption (re-sending version 4
// cannot order good content after bad content of the same version 4). Phases, each recorded on the
// rebuild row (heartbeat included, so a crashed rebuild is recognised and a new one may start):
//   1 SHADOW       CREATE TABLE <table>__rebuild_<id> AS <table>
//   2 COPY         every row outside the scope, verbatim
//   3 LOAD         the scope's authoritative latest state (live rows + deletion log, one snapshot per
//                  shard) through the projector's own mapping, rate-limited; and the quarantine of
//                  every live row whose content differs from the authoritative one at the same version
//   4 VALIDATE     the shadow catches up with the live table (shadowCatchUp: what the projector applied
//                  meanwhile, rate-limited), then its scope is judged per aggregate at one source
//                  snapshot, by CONTENT (validateShadow.ts): a scope being edited validates; the copied
//                  rest by versions
//   5 SWAP         readers switch (EXCHANGE TABLES, or RENAME on 18.16)
//   6 CATCH_UP     rows that reached the old table between the last copy and the swap
//   7 VERIFY       reconciliation of the scope on the live table (the same snapshot rule); on success
//                  the retired table is dropped (6 and 7: resumeAfterSwap.ts, shared with the recovery
//                  of a rebuild whose process died after its swap)
// A failure before the swap drops the shadow and leaves readers untouched. A failure after it keeps
// the retired table for a manual rollback (docs/reconciliation.md). The phases are RebuildRun's steps
// (rebuildRun.ts; the load in loadScope.ts).
import { startRebuild, updateRebuild } from '../ledger/sql/rebuildRows';
import type { RebuildRecord } from '../ledger/records';
import { scopeJson, scopeKey, type Scope } from '../scope';
import { projectionMappingOf } from '../target/projectionMapping';
import type { RebuildDeps } from './rebuildDeps';
import { RebuildRun } from './rebuildRun';

export type { RebuildDeps };

export interface StartedRebuild {
  record: RebuildRecord;
  done: Promise<RebuildRecord>;
}

export async function startProjectionRebuild(d: RebuildDeps, scope: Scope, requestedBy: string, reason: string): Promise<StartedRebuild> {
  const m = projectionMappingOf(scope.domain);
  const started = await startRebuild(
    d.ledger,
    { domain: scope.domain, scopeKey: scopeKey(scope), scope: scopeJson(scope), shadowTable: `${m.table}__pending`, requestedBy, reason },
    d.clock.now(),
    d.staleAfterMs,
  );
  const shadow = `${m.table}__rebuild_${started.id}`;
  await updateRebuild(d.ledger, started.id, { shadow_table: shadow }, d.clock.now());
  const record = { ...started, shadowTable: shadow };
  return { record, done: runRebuild(d, scope, record) };
}

/** The phases after the start, in the background (rebuildRun.ts); resolves with the rebuild as it ended. */
async function runRebuild(d: RebuildDeps, scope: Scope, r: RebuildRecord): Promise<RebuildRecord> {
  return new RebuildRun(d, scope, r).run();
}
