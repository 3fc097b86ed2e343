// SQL: projection rebuild records. The partial unique index projection_rebuilds_active_uq (one
// RUNNING per domain) makes two concurrent starts race safely: exactly one insert succeeds, the other
// gets a unique violation and is told a rebuild is running. A rebuild whose process died stays RUNNING
// until recovery (rebuild/recoverRebuilds.ts) claims it, rolls it back or forward and ends it: a new
// rebuild of the domain never starts beside the tables of an un-recovered one.
//
// Locking: the INSERT locks the new index entry (a concurrent insert waits on it and then fails).
// `claimStaleRebuild` is one conditional UPDATE: the row lock makes a second claimer wait, re-read the
// row (READ COMMITTED) and find the heartbeat fresh, so exactly one process recovers a rebuild. Other
// updates are by primary key.
import type { Knex } from 'knex';
import type { Domain } from '../../../publication/event';
import { TidemarkError } from '../../../shared/errors';
import { rebuildOf, type RebuildRecord } from '../records';

const UNIQUE_VIOLATION = '23505';

export async function startRebuild(
  db: Knex,
  r: { domain: Domain; scopeKey: string; scope: Record<string, unknown>; shadowTable: string; requestedBy: string; reason: string },
  at: Date,
  staleAfterMs: number,
): Promise<RebuildRecord> {
  try {
    const [row] = (await db('projection_rebuilds')
      .insert({
        domain: r.domain,
        scope_key: r.scopeKey,
        scope: JSON.stringify(r.scope),
        status: 'RUNNING',
        phase: 'STARTING',
        shadow_table: r.shadowTable,
        requested_by: r.requestedBy.slice(0, 128),
        reason: r.reason.slice(0, 300),
        started_at: at,
        heartbeat_at: at,
      })
      .returning('*')) as Record<string, unknown>[];
    return rebuildOf(row!);
  } catch (err) {
    if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
    const stale = (await staleRebuilds(db, at, staleAfterMs)).some((s) => s.domain === r.domain);
    throw new TidemarkError(
      'CONFLICT',
      stale
        ? `a rebuild of the ${r.domain} projection stopped heart-beating and awaits recovery`
        : `a rebuild of the ${r.domain} projection is already running`,
      { details: { domain: r.domain }, retriable: true },
    );
  }
}

export async function updateRebuild(db: Knex, id: number, patch: Record<string, unknown>, at: Date): Promise<void> {
  await db('projection_rebuilds')
    .where({ id })
    .update({ ...patch, heartbeat_at: at });
}

/** A running rebuild's periodic sign of life; nothing once it ended. */
export async function heartbeatRebuild(db: Knex, id: number, at: Date): Promise<void> {
  await db('projection_rebuilds').where({ id, status: 'RUNNING' }).update({ heartbeat_at: at });
}

/** RUNNING rebuilds whose heartbeat is older than `staleAfterMs`: their process stopped. */
export async function staleRebuilds(db: Knex, at: Date, staleAfterMs: number): Promise<RebuildRecord[]> {
  const rows = (await db('projection_rebuilds')
    .where({ status: 'RUNNING' })
    .andWhere('heartbeat_at', '<', new Date(at.getTime() - staleAfterMs))
    .orderBy('id')) as Record<string, unknown>[];
  return rows.map(rebuildOf);
}

/** Takes over a stale rebuild (its heartbeat set to `at`); undefined when it is no longer stale or another process took it. */
export async function claimStaleRebuild(db: Knex, id: number, at: Date, staleAfterMs: number): Promise<RebuildRecord | undefined> {
  const [row] = (await db('projection_rebuilds')
    .where({ id, status: 'RUNNING' })
    .andWhere('heartbeat_at', '<', new Date(at.getTime() - staleAfterMs))
    .update({ heartbeat_at: at })
    .returning('*')) as Record<string, unknown>[];
  return row ? rebuildOf(row) : undefined;
}
