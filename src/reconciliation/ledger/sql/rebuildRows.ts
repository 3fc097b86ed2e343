// SQL: projection rebuild records. `startRebuild` first fails rebuilds whose process stopped
// heart-beating (a crash leaves RUNNING behind), then inserts the new one; the partial unique index
// projection_rebuilds_active_uq (one RUNNING per domain) makes two concurrent starts race safely:
// exactly one insert succeeds, the other gets a unique violation and is told a rebuild is running.
//
// Locking: the abandonment UPDATE locks the stale row; the INSERT locks the new index entry (a
// concurrent insert waits on it and then fails). Updates afterwards are by primary key.
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
  await db('projection_rebuilds')
    .where({ domain: r.domain, status: 'RUNNING' })
    .andWhere('heartbeat_at', '<', new Date(at.getTime() - staleAfterMs))
    .update({
      status: 'FAILED',
      error_code: 'ABANDONED',
      error_summary: 'the rebuilding process stopped; shadow or retired table may remain',
      finished_at: at,
    });
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
    if ((err as { code?: string }).code === UNIQUE_VIOLATION)
      throw new TidemarkError('CONFLICT', `a rebuild of the ${r.domain} projection is already running`, {
        details: { domain: r.domain },
        retriable: true,
      });
    throw err;
  }
}

export async function updateRebuild(db: Knex, id: number, patch: Record<string, unknown>, at: Date): Promise<void> {
  await db('projection_rebuilds')
    .where({ id })
    .update({ ...patch, heartbeat_at: at });
}
