// Controlled rebuild of one scope of a projection, for same-version corruption (re-sending version 4
// cannot order good content after bad content of the same version 4). Phases, each recorded on the
// rebuild row (heartbeat included, so a crashed rebuild is recognised and a new one may start):
//   1 SHADOW       CREATE TABLE <table>__rebuild_<id> AS <table>
//   2 COPY         every row outside the scope, verbatim
//   3 LOAD         the scope's authoritative latest state (live rows + deletion log, one snapshot per
//                  shard) through the projector's own mapping, rate-limited; and the quarantine of
//                  every live row whose content differs from the authoritative one at the same version
//   4 VALIDATE     the shadow's scope against the authoritative stores by CONTENT digests (the normal
//                  reconciliation, with late rows copied in before each target scan: changes that
//                  arrive during the rebuild are included); the copied rest by versions
//   5 SWAP         readers switch (EXCHANGE TABLES, or RENAME on 18.16)
//   6 CATCH_UP     rows that reached the old table between the last copy and the swap
//   7 VERIFY       reconciliation of the scope on the live table; on success the retired table is dropped
// A failure before the swap drops the shadow and leaves readers untouched. A failure after it keeps
// the retired table for a manual rollback (docs/reconciliation.md).
import type { Knex } from 'knex';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ClickHouseLayout } from '../../infra/clickhouse/layout';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { sleep } from '../../shared/lifecycle';
import { summarizeError } from '../../shared/redact';
import { canonicalLine, digestOf } from '../canonical/canonical';
import { fieldsOf } from '../canonical/fields';
import { compareScope, type CompareDeps, type CompareResult } from '../compareScope';
import { startRebuild, updateRebuild } from '../ledger/sql/rebuildRows';
import { quarantineContent, type QuarantinedContent } from '../ledger/sql/quarantine';
import { rebuildOf, type RebuildRecord } from '../ledger/records';
import type { SourceReader, TargetReader } from '../ports';
import type { RateLimiter } from '../repair/rateLimiter';
import { scopeJson, scopeKey, type Scope } from '../scope';
import { PROJECTIONS } from '../target/projectionMapping';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { scopeRowDigests } from '../target/sql/scopeRowDigests';
import { aggregatesBehind } from './sql/aggregatesBehind';
import { copyLateRows, copyOutsideScope } from './sql/copyRows';
import { createShadow, dropTable, swapTables } from './sql/shadowTables';
import { canonicalValuesOf, projectionLineOf } from './projectionLines';
import { recordShadowUuid, startRebuildHeartbeat } from './rebuildLiveness';

/** Checks repeated when the first says the system is busy rather than wrong (see VALIDATE and VERIFY). */
const SETTLE_ROUNDS = 3;
const SETTLE_PAUSE_MS = 500;
const TRANSIENT = new Set<string>(['CATCHING_UP', 'SCOPE_CHANGED']);

export interface RebuildDeps {
  ledger: Knex;
  ch: ClickHouseClient;
  database: string;
  layout: ClickHouseLayout;
  source: SourceReader;
  target: TargetReader;
  compare: Omit<CompareDeps, 'source' | 'target' | 'table' | 'beforeTargetScan'>;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  catchUpMarginMs: number;
  staleAfterMs: number;
  insertBatchRows?: number;
  /** Reconciles the scope on the live table after the swap (a VERIFICATION run in the ledger). */
  verify(scope: Scope): Promise<Pick<CompareResult, 'outcome' | 'note'>>;
  /** Called once the rebuild ended (VERIFIED or FAILED), to settle the repairs that asked for it. */
  finished(record: RebuildRecord): Promise<void>;
}

export interface StartedRebuild {
  record: RebuildRecord;
  done: Promise<RebuildRecord>;
}

export async function startProjectionRebuild(d: RebuildDeps, scope: Scope, requestedBy: string, reason: string): Promise<StartedRebuild> {
  const m = PROJECTIONS[scope.domain];
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
  const m = PROJECTIONS[scope.domain];
  const live = m.table;
  const shadow = r.shadowTable;
  const retiredName = `${m.table}__retired_${r.id}`;
  const phase = (name: string, patch: Record<string, unknown> = {}) =>
    updateRebuild(d.ledger, r.id, { phase: name, ...patch }, d.clock.now());
  const now = () => d.clock.now().getTime();
  let swapped = false;
  let retired: string | undefined;
  let lastCopyMs = now();
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

    // A busy system is not a defective one: a scope still catching up or changing, or copied rows an
    // insert in flight at the last copy had not yet committed, are checked again (bounded) before
    // the rebuild gives up.
    const checkShadow = () =>
      compareScope(
        {
          ...d.compare,
          source: d.source,
          target: d.target,
          table: shadow,
          beforeTargetScan: async () => {
            const at = now();
            await copyLateRows(d.ch, d.database, live, shadow, m, scope, copyStartMs - d.catchUpMarginMs);
            lastCopyMs = at;
          },
        },
        scope,
        'CONTENT',
        false,
      );
    let scopeCheck = await checkShadow();
    for (let round = 1; round < SETTLE_ROUNDS && TRANSIENT.has(scopeCheck.outcome) && !d.compare.signal?.aborted; round++)
      scopeCheck = await checkShadow();
    const shadowBehind = () => aggregatesBehind(d.ch, d.database, live, shadow, m, scope, lastCopyMs - d.catchUpMarginMs);
    let behind = await shadowBehind();
    for (let round = 1; round < SETTLE_ROUNDS && behind > 0; round++) {
      await sleep(SETTLE_PAUSE_MS, d.compare.signal);
      const at = now();
      await copyLateRows(d.ch, d.database, live, shadow, m, scope, copyStartMs - d.catchUpMarginMs);
      lastCopyMs = at;
      behind = await shadowBehind();
    }
    const validation = {
      scope: { outcome: scopeCheck.outcome, note: scopeCheck.note, discrepancies: scopeCheck.discrepancies.length },
      outsideScopeBehind: behind,
    };
    if (scopeCheck.outcome !== 'CLEAN' || behind > 0) {
      await phase('VALIDATE', { validation: JSON.stringify(validation) });
      throw Object.assign(
        new Error(`shadow validation failed: scope ${scopeCheck.outcome}, ${behind} aggregate(s) outside the scope behind`),
        { code: 'VALIDATION_FAILED' },
      );
    }

    await phase('SWAP', { validation: JSON.stringify(validation) });
    retired = await swapTables(d.ch, d.layout, d.database, live, shadow, retiredName);
    swapped = true;
    await phase('CATCH_UP', { retired_table: retired, swapped_at: d.clock.now() });
    await copyLateRows(d.ch, d.database, retired, live, m, scope, lastCopyMs - d.catchUpMarginMs);

    await phase('VERIFY');
    let verified = await d.verify(scope);
    for (let round = 1; round < SETTLE_ROUNDS && TRANSIENT.has(verified.outcome) && !d.compare.signal?.aborted; round++)
      verified = await d.verify(scope);
    // An insert that was in flight into the old table when it was swapped out commits there after the
    // catch-up copy read it: copy again until the retired table holds nothing newer (it gets no new writers).
    let restBehind = await aggregatesBehind(d.ch, d.database, retired, live, m, scope, Number.MAX_SAFE_INTEGER);
    for (let round = 1; round < SETTLE_ROUNDS && restBehind > 0; round++) {
      await sleep(SETTLE_PAUSE_MS, d.compare.signal);
      await copyLateRows(d.ch, d.database, retired, live, m, scope, lastCopyMs - d.catchUpMarginMs);
      restBehind = await aggregatesBehind(d.ch, d.database, retired, live, m, scope, Number.MAX_SAFE_INTEGER);
    }
    const ok = verified.outcome === 'CLEAN' && restBehind === 0;
    const finalValidation = {
      ...validation,
      verification: { outcome: verified.outcome, note: verified.note, outsideScopeBehind: restBehind },
    };
    if (ok) await dropTable(d.ch, d.layout, d.database, retired);
    else d.logger.error({ rebuildId: r.id, verification: finalValidation.verification }, 'projection rebuild failed its verification');
    await updateRebuild(
      d.ledger,
      r.id,
      ok
        ? {
            status: 'VERIFIED',
            phase: 'DONE',
            retired_table: null,
            validation: JSON.stringify(finalValidation),
            finished_at: d.clock.now(),
          }
        : {
            status: 'FAILED',
            phase: 'VERIFY',
            validation: JSON.stringify(finalValidation),
            error_code: 'VERIFICATION_FAILED',
            error_summary: `after the swap: ${verified.outcome}; retired table kept for rollback`,
            finished_at: d.clock.now(),
          },
      d.clock.now(),
    );
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
