// The rebuild fault: the process running a projection rebuild is SIGKILLed mid-rebuild while the
// workload keeps writing, and the rebuild must end by itself (rolled back, or resumed and VERIFIED)
// with nothing half-swapped. Caught as the other timed faults are (faultActions.ts): the ledger row of
// the rebuild is polled; the moment it shows the wanted phase the process is frozen (SIGSTOP: no more
// progress, no more heartbeats), the row is read again, and only if it is still RUNNING in that phase
// is the process SIGKILLed. The swap replaces the whole table, so the workload's writes to its own
// campaign during the rebuild are exactly what the catch-up after the swap must carry over.
//   Wanted phase: after the swap (CATCH_UP, VERIFY: the half-swapped case) for the first tries; a
//   rebuild that ends before it is caught there is followed by another; the last try takes any phase.
import type { Resources } from '../../../src/app/resources';
import { str } from '../../../src/infra/clickhouse/literal';
import type { RebuildRecord } from '../../../src/reconciliation/ledger/records';
import { rebuildOf } from '../../../src/reconciliation/ledger/records';
import { waitFor } from '../../../src/shared/lifecycle';
import { fitnessStates, seedProjection, seedSource } from '../../support/reconciliationSeed';
import { FaultNotInjectedError, requireInjected, type FaultTarget } from './faultActions';

const AFTER_SWAP = new Set(['CATCH_UP', 'VERIFY']);

/**
 * A finished campaign nobody writes to (the rebuild's scope): results straight into the shards and the
 * same content into ClickHouse (reconciliationSeed.ts), at shard-local sequences far beyond any the
 * workload allocates.
 */
export async function seedQuietCampaign(r: Resources, detectId: number, count = 400): Promise<void> {
  const states = fitnessStates(
    { detectId, count, firstSequence: 900_000_000, updatedAt: new Date(Date.now() - 3600_000) },
    r.mysql.shards.length,
  );
  await seedSource(r, states);
  await seedProjection(r, states);
}

async function newestRebuild(r: Resources, afterId: number): Promise<RebuildRecord | undefined> {
  const row = (await r.pg('projection_rebuilds').where('id', '>', afterId).orderBy('id', 'desc').first()) as
    Record<string, unknown> | undefined;
  return row ? rebuildOf(row) : undefined;
}

export async function rebuildById(r: Resources, id: number): Promise<RebuildRecord> {
  return rebuildOf((await r.pg('projection_rebuilds').where({ id }).first()) as Record<string, unknown>);
}

/** Tables a rebuild creates and ends with (`<table>__rebuild_<id>`, `<table>__retired_<id>`), left in ClickHouse. */
export async function rebuildLeftovers(r: Resources): Promise<string[]> {
  const rs = await r.clickhouse.query({
    query: `SELECT name FROM system.tables WHERE database = ${str(r.settings.clickhouseDatabase)}
            AND (name LIKE '%\\_\\_rebuild\\_%' OR name LIKE '%\\_\\_retired\\_%') ORDER BY name`,
    format: 'JSONEachRow',
  });
  return (await rs.json<{ name: string }>()).map((x) => x.name);
}

export interface RebuildKilled {
  rebuildId: number;
  tries: number;
  phaseWhenKilled: string;
  afterSwap: boolean;
}

/**
 * Starts rebuilds (`start`, served by `name`) until one is caught RUNNING in the wanted phase, then
 * SIGKILLs `name`; throws FaultNotInjectedError (the process thawed) if none is.
 */
export async function killRebuildMidway(
  r: Resources,
  target: FaultTarget,
  name: string,
  start: () => void,
  opts: { maxTries?: number; timeoutMs?: number } = {},
): Promise<RebuildKilled> {
  const maxTries = opts.maxTries ?? 4;
  const deadline = Date.now() + (opts.timeoutMs ?? 120000);
  const fault = 'rebuild-sigkill';
  let lastId = Number((await r.pg('projection_rebuilds').max('id as id').first())?.id ?? 0);
  for (let tries = 1; tries <= maxTries && Date.now() < deadline; tries++) {
    const wanted = (phase: string) => (tries < maxTries ? AFTER_SWAP.has(phase) : phase !== 'STARTING');
    start();
    const rebuild = await waitFor(() => newestRebuild(r, lastId), { timeoutMs: 30000, intervalMs: 20, what: 'the rebuild to start' });
    lastId = rebuild.id;
    // Polled without a pause: a phase may last well under a second.
    for (;;) {
      const now = await rebuildById(r, rebuild.id);
      if (now.status !== 'RUNNING' || Date.now() >= deadline) break;
      if (!wanted(now.phase)) continue;
      target.freeze(name);
      const frozen = await rebuildById(r, rebuild.id);
      if (frozen.status !== 'RUNNING' || !wanted(frozen.phase)) {
        target.thaw(name);
        continue;
      }
      await target.kill(name);
      const after = await rebuildById(r, rebuild.id);
      requireInjected(after.status === 'RUNNING' && after.phase === frozen.phase, fault, 'the rebuild still RUNNING after the kill', {
        tries,
        phase: after.phase,
        status: after.status,
      });
      return { rebuildId: rebuild.id, tries, phaseWhenKilled: frozen.phase, afterSwap: AFTER_SWAP.has(frozen.phase) };
    }
  }
  throw new FaultNotInjectedError(fault, 'a rebuild RUNNING in the wanted phase', { maxTries, lastRebuild: lastId });
}
