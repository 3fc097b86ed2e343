// What a running rebuild leaves in the ledger so that, if its process dies, another process can tell
// (a) that it died and (b) where it stopped (recoverRebuilds.ts):
//   heartbeat    every staleAfterMs / 4 besides the phase changes, so a long phase (a large LOAD, a
//                verification waiting for a busy pipeline) is never taken for a dead process; the
//                timer is unref'd (it never keeps a process alive) and stopped when the rebuild ends.
//   shadow UUID  right after CREATE TABLE: on Atomic databases the only way to tell an EXCHANGE that
//                happened from one that did not (sql/storageTables.ts).
import type { Knex } from 'knex';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ClickHouseLayout } from '../../infra/clickhouse/layout';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { heartbeatRebuild, updateRebuild } from '../ledger/sql/rebuildRows';
import { storageTableFacts } from './sql/storageTables';

export interface Heartbeat {
  stop(): void;
}

/** How often a running rebuild (or a recovery) heart-beats: a quarter of the stale age, so three beats may fail. */
export function heartbeatEveryMs(staleAfterMs: number): number {
  return Math.max(250, Math.floor(staleAfterMs / 4));
}

export function startRebuildHeartbeat(
  d: { ledger: Knex; clock: Clock; logger: Logger; staleAfterMs: number },
  rebuildId: number,
): Heartbeat {
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return; // a slow ledger: never queue beats behind each other
    beating = true;
    heartbeatRebuild(d.ledger, rebuildId, d.clock.now())
      .catch((err) => d.logger.warn({ rebuildId, error: summarizeError(err) }, 'rebuild heartbeat failed'))
      .finally(() => (beating = false));
  }, heartbeatEveryMs(d.staleAfterMs));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Records the UUID of the shadow's storage table on the rebuild row (null where ClickHouse has none). */
export async function recordShadowUuid(
  d: { ledger: Knex; ch: ClickHouseClient; layout: ClickHouseLayout; database: string; clock: Clock },
  rebuildId: number,
  shadow: string,
): Promise<void> {
  const facts = (await storageTableFacts(d.ch, d.layout, d.database, [shadow])).get(shadow);
  await updateRebuild(d.ledger, rebuildId, { shadow_uuid: facts?.uuid ?? null }, d.clock.now());
}
