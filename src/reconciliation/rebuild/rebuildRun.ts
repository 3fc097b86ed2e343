// One projection rebuild run, after its row and shadow name exist (rebuildProjection.ts starts it):
// a small object whose methods are the phases the header of rebuildProjection.ts lists, so each reads
// on its own. It owns the heartbeat, the failure path (shadow dropped before the swap, retired table
// kept after it) and the end: the row reloaded as it ended and `finished` told.
import { summarizeError } from '../../shared/redact';
import { rebuildOf, type RebuildRecord } from '../ledger/records';
import { updateRebuild } from '../ledger/sql/rebuildRows';
import type { Scope } from '../scope';
import { projectionMappingOf, type ProjectionMapping } from '../target/projectionMapping';
import { loadScope } from './loadScope';
import type { RebuildDeps } from './rebuildDeps';
import { recordShadowUuid, startRebuildHeartbeat } from './rebuildLiveness';
import { rebuildStopped } from './rebuildStopped';
import { finishAfterSwap } from './resumeAfterSwap';
import { shadowCatchUp, type ShadowCatchUp } from './shadowCatchUp';
import { copyOutsideScope } from './sql/copyRows';
import { createShadow, dropTable, swapTables } from './sql/shadowTables';
import { validateShadow, type ShadowValidation } from './validateShadow';

const BUSY_WINDOW_MS = 10000;

export class RebuildRun {
  private readonly m: ProjectionMapping;
  private readonly live: string;
  private readonly shadow: string;
  private swapped = false;
  private retired: string | undefined;

  constructor(
    private readonly d: RebuildDeps,
    private readonly scope: Scope,
    private readonly r: RebuildRecord,
  ) {
    this.m = projectionMappingOf(scope.domain);
    this.live = this.m.table;
    this.shadow = r.shadowTable;
  }

  async run(): Promise<RebuildRecord> {
    const { d, r } = this;
    const heartbeat = startRebuildHeartbeat(d, r.id);
    try {
      await this.rebuild();
    } catch (err) {
      await this.failed(err);
    } finally {
      heartbeat.stop();
    }
    const final = rebuildOf((await d.ledger('projection_rebuilds').where({ id: r.id }).first()) as Record<string, unknown>);
    await d.finished(final).catch((err) => d.logger.error({ err, rebuildId: r.id }, 'settling the repairs of a rebuild failed'));
    return final;
  }

  private phase(name: string, patch: Record<string, unknown> = {}) {
    return updateRebuild(this.d.ledger, this.r.id, { phase: name, ...patch }, this.d.clock.now());
  }

  private async rebuild(): Promise<void> {
    const { d, scope, live, shadow, m } = this;
    await this.phase('SHADOW');
    await createShadow(d.ch, d.layout, d.database, live, shadow);
    // Before anything depends on it: after a crash, recovery tells an EXCHANGE that happened by this UUID.
    await recordShadowUuid(d, this.r.id, shadow);

    await this.phase('COPY');
    const copyStartMs = d.clock.now().getTime();
    await copyOutsideScope(d.ch, d.database, live, shadow, m, scope);

    await this.phase('LOAD');
    const loaded = await loadScope(d, scope, m, { live, shadow }, this.r.id);
    await this.phase('VALIDATE', { source_rows: loaded.sourceRows, quarantined: loaded.quarantined });

    const { catchUp, validation } = await this.validate(copyStartMs);
    // One more round right before the swap: what the projector wrote since the validation's last round
    // is in the shadow when readers switch, so the window CATCH_UP closes is the swap statement's own.
    await catchUp.round();
    await this.swap(catchUp, validation);
  }

  /** The shadow caught up with the live table, then judged; a failed validation stops the rebuild. */
  private async validate(copyStartMs: number): Promise<{ catchUp: ShadowCatchUp; validation: ShadowValidation }> {
    const { d, scope, live, shadow, m } = this;
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
      await this.phase('VALIDATE', { validation: JSON.stringify(validation) });
      const { outcome } = validation.scope;
      throw rebuildStopped(
        'VALIDATION_FAILED',
        `shadow validation failed: scope ${outcome}, ${validation.outsideScopeBehind} aggregate(s) outside the scope behind`,
      );
    }
    return { catchUp, validation };
  }

  /** Readers switch; then the catch-up and verification after the swap (resumeAfterSwap.ts). */
  private async swap(catchUp: ShadowCatchUp, validation: ShadowValidation): Promise<void> {
    const { d, r } = this;
    await this.phase('SWAP', { validation: JSON.stringify(validation) });
    const retiredTable = await swapTables(d.ch, d.layout, d.database, this.live, this.shadow, `${this.m.table}__retired_${r.id}`);
    this.retired = retiredTable;
    this.swapped = true;
    await finishAfterSwap({ ...d, signal: d.compare.signal }, r, this.scope, retiredTable, {
      swappedAt: d.clock.now(),
      sinceMs: catchUp.lastRoundMs() - d.catchUpMarginMs,
      validation: { ...validation },
    });
  }

  /** Before the swap the shadow is dropped (readers untouched); after it the retired table is kept. */
  private async failed(err: unknown): Promise<void> {
    const { d, r, swapped, retired } = this;
    const safe = summarizeError(err);
    d.logger.error({ err, rebuildId: r.id }, 'projection rebuild failed');
    if (!swapped) await dropTable(d.ch, d.layout, d.database, this.shadow).catch(() => undefined);
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
  }
}
