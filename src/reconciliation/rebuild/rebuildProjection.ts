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
// the retired table for a manual rollback (docs/reconciliation.md).
import { summarizeError } from '../../shared/redact';
import { canonicalLine, digestOf } from '../../domains/contract/canonical';
import { fieldsOf } from '../../domains/canonicalFields';
import { startRebuild, updateRebuild } from '../ledger/sql/rebuildRows';
import { quarantineContent, type QuarantinedContent } from '../ledger/sql/quarantine';
import { rebuildOf, type RebuildRecord } from '../ledger/records';
import { scopeJson, scopeKey, type Scope } from '../scope';
import { projectionMappingOf } from '../target/projectionMapping';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { scopeRowDigests } from '../target/sql/scopeRowDigests';
import { copyOutsideScope } from './sql/copyRows';
import { createShadow, dropTable, swapTables } from './sql/shadowTables';
import { canonicalValuesOf, projectionLineOf } from './projectionLines';
import type { RebuildDeps } from './rebuildDeps';
import { recordShadowUuid, startRebuildHeartbeat } from './rebuildLiveness';
import { rebuildStopped } from './rebuildStopped';
import { shadowCatchUp } from './shadowCatchUp';
import { finishAfterSwap } from './resumeAfterSwap';
import { validateShadow } from './validateShadow';

const BUSY_WINDOW_MS = 10000;

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

async function reload(d: RebuildDeps, id: number): Promise<RebuildRecord> {
  return rebuildOf((await d.ledger('projection_rebuilds').where({ id }).first()) as Record<string, unknown>);
}

async function runRebuild(d: RebuildDeps, scope: Scope, r: RebuildRecord): Promise<RebuildRecord> {
  const m = projectionMappingOf(scope.domain);
  const live = m.table;
  const shadow = r.shadowTable;
  const retiredName = `${m.table}__retired_${r.id}`;
  const phase = (name: string, patch: Record<string, unknown> = {}) =>
    updateRebuild(d.ledger, r.id, { phase: name, ...patch }, d.clock.now());
  const now = () => d.clock.now().getTime();
  let swapped = false;
  let retired: string | undefined;
  const heartbeat = startRebuildHeartbeat(d, r.id);
  try {
    await phase('SHADOW');
    await createShadow(d.ch, d.layout, d.database, live, shadow);
    // Before anything depends on it: after a crash, recovery tells an EXCHANGE that happened by this UUID.
    await recordShadowUuid(d, r.id, shadow);

    await phase('COPY');
    const copyStartMs = now();
    await copyOutsideScope(d.ch, d.database, live, shadow, m, scope);

    await phase('LOAD');
    const events = await d.source.events(scope);
    const fields = fieldsOf(scope.domain, 'CONTENT');
    const authoritative = new Map(
      events.map((e) => [`${e.aggregateId}\u0000${e.version}`, digestOf(canonicalLine(fields, canonicalValuesOf(e)))]),
    );
    const batch = d.insertBatchRows ?? 5000;
    for (let i = 0; i < events.length; i += batch) {
      const slice = events.slice(i, i + batch);
      await d.limiter.acquire(slice.length, d.compare.signal);
      await insertJsonEachRow(
        d.ch,
        d.database,
        shadow,
        slice.map((e) => projectionLineOf(e, now())),
      );
    }
    const bad: QuarantinedContent[] = (await scopeRowDigests(d.ch, d.database, live, m, scope))
      .filter((row) => {
        const good = authoritative.get(`${row.id}\u0000${row.version}`);
        return good !== undefined && good !== row.digest;
      })
      .map((row) => ({ aggregateId: row.id, version: row.version, digest: row.digest }));
    await quarantineContent(d.ledger, scope.domain, r.id, bad, d.clock.now());
    await phase('VALIDATE', { source_rows: events.length, quarantined: bad.length });

    const catchUp = shadowCatchUp({
      ch: d.ch,
      database: d.database,
      live,
      shadow,
      mapping: m,
      scope,
      limiter: d.limiter,
      limitRowsPerSecond: d.limitRowsPerSecond,
      clock: d.clock,
      startedMs: copyStartMs,
      marginMs: d.catchUpMarginMs,
      busyWindowMs: d.busyWindowMs ?? BUSY_WINDOW_MS,
      ...(d.compare.signal ? { signal: d.compare.signal } : {}),
    });
    const { ok: valid, validation } = await validateShadow({
      compare: { ...d.compare, source: d.source, target: d.target },
      ch: d.ch,
      database: d.database,
      live,
      shadow,
      mapping: m,
      scope,
      catchUp,
      marginMs: d.catchUpMarginMs,
    });
    if (!valid) {
      await phase('VALIDATE', { validation: JSON.stringify(validation) });
      const { outcome } = validation.scope;
      throw rebuildStopped(
        'VALIDATION_FAILED',
        `shadow validation failed: scope ${outcome}, ${validation.outsideScopeBehind} aggregate(s) outside the scope behind`,
      );
    }
    // One more round right before the swap: what the projector wrote since the validation's last round
    // is in the shadow when readers switch, so the window CATCH_UP closes is the swap statement's own.
    await catchUp.round();

    await phase('SWAP', { validation: JSON.stringify(validation) });
    const retiredTable = await swapTables(d.ch, d.layout, d.database, live, shadow, retiredName);
    retired = retiredTable;
    swapped = true;
    await finishAfterSwap({ ...d, signal: d.compare.signal }, r, scope, retiredTable, {
      swappedAt: d.clock.now(),
      sinceMs: catchUp.lastRoundMs() - d.catchUpMarginMs,
      validation: { ...validation },
    });
  } catch (err) {
    const safe = summarizeError(err);
    d.logger.error({ err, rebuildId: r.id }, 'projection rebuild failed');
    if (!swapped) await dropTable(d.ch, d.layout, d.database, shadow).catch(() => undefined);
    await updateRebuild(
      d.ledger,
      r.id,
      {
        status: 'FAILED',
        error_code: safe.code,
        error_summary: swapped ? `after the swap (retired table kept): ${safe.summary}` : safe.summary,
        finished_at: d.clock.now(),
        ...(retired ? { retired_table: retired } : {}),
      },
      d.clock.now(),
    ).catch(() => undefined);
  } finally {
    heartbeat.stop();
  }
  const final = await reload(d, r.id);
  await d.finished(final).catch((err) => d.logger.error({ err, rebuildId: r.id }, 'settling the repairs of a rebuild failed'));
  return final;
}
