// Bulk seeding for reconciliation tests and the benchmark: authoritative fitness rows straight into
// each shard's tables (live rows and the deletion log), and their projection rows straight into
// ClickHouse through the projector's own mapping (projectionLineOf), so both sides hold the same
// business content without running the write path or the pipeline for 100,000 results.
import type { Resources } from '../../src/app/resources';
import { composeDataId } from '../../src/domains/fitness/sharding';
import { DELETIONS, RESULTS, rowOf } from '../../src/domains/fitness/store/rows';
import type { FitnessResultState } from '../../src/domains/fitness/types';
import { insertJsonEachRow } from '../../src/projections/sql/insertJsonEachRow';
import { eventOfState } from '../../src/domains/fitness/reconciliation/fitnessSource';
import { projectionLineOf } from '../../src/reconciliation/rebuild/projectionLines';

export interface SeedOptions {
  detectId: number;
  count: number;
  /** First shard-local sequence number (distinct per call so ids never collide). */
  firstSequence: number;
  updatedAt: Date;
  /** Every nth result is corrected (version 2); every mth deleted (tombstone version 2). */
  correctEvery?: number;
  deleteEvery?: number;
}

/** Builds `count` results spread over the shards (dataId = sequence * 100 + shard). */
export function fitnessStates(o: SeedOptions, shardCount: number): FitnessResultState[] {
  const out: FitnessResultState[] = [];
  for (let i = 0; i < o.count; i++) {
    const shard = i % shardCount;
    const dataId = composeDataId(o.firstSequence + Math.floor(i / shardCount), shard);
    const corrected = o.correctEvery ? i % o.correctEvery === 1 : false;
    const deleted = o.deleteEvery ? i % o.deleteEvery === 2 : false;
    out.push({
      dataId,
      detectId: o.detectId,
      userId: 1000 + i,
      projectId: 1 + (i % 3),
      schoolId: 10 + (i % 50),
      grade: 1 + (i % 12),
      result: `${(5 + (i % 200) / 10).toFixed(1)}00`,
      unit: 's',
      version: corrected || deleted ? 2 : 1,
      isDeleted: deleted,
      createdAt: new Date(o.updatedAt.getTime() - 3600_000),
      updatedAt: o.updatedAt,
      shard,
      changedBy: null,
    });
  }
  return out;
}

export async function seedSource(r: Resources, states: FitnessResultState[], batch = 5000): Promise<void> {
  for (const sh of r.mysql.shards) {
    const mine = states.filter((s) => s.shard === sh.index);
    const live = mine.filter((s) => !s.isDeleted).map(rowOf);
    const deleted = mine.filter((s) => s.isDeleted).map((s) => ({ ...rowOf(s), deleted_at: s.updatedAt }));
    for (let i = 0; i < live.length; i += batch) await sh.db(RESULTS).insert(live.slice(i, i + batch));
    for (let i = 0; i < deleted.length; i += batch) await sh.db(DELETIONS).insert(deleted.slice(i, i + batch));
  }
}

export async function seedProjection(r: Resources, states: FitnessResultState[], batch = 20000): Promise<void> {
  const now = Date.now();
  const lines = states.map((s) => projectionLineOf(eventOfState(s), now));
  for (let i = 0; i < lines.length; i += batch)
    await insertJsonEachRow(r.clickhouse, r.settings.clickhouseDatabase, 'fitness_results', lines.slice(i, i + batch));
}

/** Newer versions of results already in the shards (a correction as the write path commits it). */
export async function updateSource(r: Resources, states: FitnessResultState[]): Promise<void> {
  for (const s of states) {
    const sh = r.mysql.shards.find((x) => x.index === s.shard);
    if (!sh) throw new Error(`no shard ${s.shard}`);
    await sh.db(RESULTS).where({ data_id: s.dataId }).update(rowOf(s));
  }
}

/**
 * Settings for a reconciler schedule a test can watch: a pass every 300 ms, a 4 s rotation period, one
 * scope per pass (a budget of one row per hour), and short catch-up waits and retries.
 */
export const FAST_SCHEDULE_SETTINGS = {
  reconcileIntervalMs: 300,
  reconcileRotationPeriodMs: 4000,
  reconcileRotationRowsPerHour: 1,
  reconcileCatchUpWaitMs: 500,
  reconcileRetryBaseMs: 50,
  reconcileRetryMaxMs: 100,
} as const;
