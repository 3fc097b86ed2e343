// The erasure runner: takes a due erasure from the ledger, erases it store by store, verifies every
// store and issues the certificate. It never asks which domain or store it holds: the composition root
// hands it each domain's stores (its source first, then Kafka, ClickHouse, the reconciliation ledger).
//
// One pass works one erasure under a lease: each store not yet done gets an erase step (the source
// first: until it is empty, new events of the subject could still be published, so the others wait);
// once every store is done, every store is searched; a clean search completes the erasure with its
// certificate and forgets the subject's id; a search that finds anything leaves it VERIFYING, sends
// that store back to erasing and raises TidemarkErasureVerificationFindings. Progress is saved after
// every pass, also a failed one; a crash loses at most the step in hand, and every step is idempotent.
import type { Knex } from 'knex';
import type { ErasureJob, SourceErasure, StoreErasure } from '../domains/contract/erasure';
import type { Clock } from '../shared/clock';
import { toTidemarkError } from '../shared/errors';
import { sleep, type Stoppable } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import type { ErasureRecord, ErasureStatus, StoreProgress } from './ledger/records';
import { claimDueErasure } from './ledger/sql/claimDueErasure';
import { saveErasure } from './ledger/sql/saveErasure';

/** A domain's stores, in the order they are erased: the source, then the others. */
export interface ErasureStores {
  source: SourceErasure;
  others: readonly StoreErasure[];
}

export interface ErasureRunnerDeps {
  pg: Knex;
  storesOf(domain: string): ErasureStores;
  clock: Clock;
  owner: string;
  retryMs: number;
  leaseMs: number;
  logger: Logger;
  /** Counts passes by outcome (progress, waiting, findings, completed, failed). */
  onPass?(outcome: PassOutcome): void;
}

export type PassOutcome = 'progress' | 'waiting' | 'findings' | 'completed' | 'failed';

export function jobOf(r: ErasureRecord): ErasureJob {
  return {
    erasureId: r.id,
    kind: r.kind,
    mode: r.mode,
    subjectId: r.subjectId ?? '',
    domain: r.domain,
    aggregateIds: r.aggregateIds,
    subjectHash: r.subjectHash,
    startedAt: r.requestedAt,
  };
}

/** Works one due erasure, if any; resolves with what it did (undefined: nothing was due). */
export async function runErasurePass(d: ErasureRunnerDeps): Promise<PassOutcome | undefined> {
  const record = await claimDueErasure(d.pg, d.owner, d.clock.now(), d.leaseMs);
  if (!record) return undefined;
  const progress: Record<string, StoreProgress> = { ...record.progress };
  const job = jobOf(record);
  let outcome: PassOutcome;
  let status: ErasureStatus = record.status === 'REQUESTED' ? 'ERASING' : record.status;
  let extra: Partial<Parameters<typeof saveErasure>[3]> = {};
  try {
    const stores = d.storesOf(record.domain);
    const all = [stores.source, ...stores.others];
    const waiting = await eraseStep(job, stores, progress, d.clock);
    if (waiting.length) {
      outcome = all.some((s) => progress[s.store]?.done) ? 'progress' : 'waiting';
    } else {
      status = 'VERIFYING';
      const certificate = await Promise.all(all.map((s) => s.verify(job)));
      const findings = certificate.reduce((n, c) => n + c.found, 0);
      for (const c of certificate)
        if (c.found > 0) progress[c.store] = { ...progress[c.store]!, done: false, note: 'found by verification' };
      const now = d.clock.now();
      extra = { certificate, findings, verifiedAt: now };
      if (findings === 0) {
        status = 'COMPLETED';
        extra = { ...extra, completedAt: now, forgetSubject: true };
        outcome = 'completed';
      } else outcome = 'findings';
    }
    await save(d, record, status, progress, { ...extra, lastError: null });
    d.logger.info({ erasureId: record.id, status, outcome }, 'erasure pass');
  } catch (err) {
    const e = toTidemarkError(err);
    outcome = 'failed';
    await save(d, record, status, progress, { lastError: e.code, attempts: record.attempts + 1 });
    d.logger.warn({ erasureId: record.id, code: e.code }, 'erasure pass failed; it is retried');
  }
  d.onPass?.(outcome);
  return outcome;
}

/** One erase step of every store not yet done (the source alone until it is); the stores still waiting. */
async function eraseStep(job: ErasureJob, stores: ErasureStores, progress: Record<string, StoreProgress>, clock: Clock): Promise<string[]> {
  const step = async (s: StoreErasure) => {
    if (progress[s.store]?.done) return;
    const r = await s.erase(job);
    const before = progress[s.store];
    progress[s.store] = {
      affected: (before?.affected ?? 0) + r.affected,
      done: r.done,
      ...(r.note ? { note: r.note } : {}),
      steps: (before?.steps ?? 0) + 1,
      at: clock.now().toISOString(),
    };
  };
  await step(stores.source);
  if (!progress[stores.source.store]?.done) return [stores.source.store];
  // The other stores are independent of each other: a slow compaction does not hold the ClickHouse delete.
  const results = await Promise.allSettled(stores.others.map(step));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return stores.others.filter((s) => !progress[s.store]?.done).map((s) => s.store);
}

async function save(
  d: ErasureRunnerDeps,
  r: ErasureRecord,
  status: ErasureStatus,
  progress: Record<string, StoreProgress>,
  extra: Partial<Parameters<typeof saveErasure>[3]> & { lastError: string | null },
): Promise<void> {
  const now = d.clock.now();
  const done = status === 'COMPLETED';
  const saved = await saveErasure(d.pg, r.id, d.owner, {
    status,
    progress,
    attempts: r.attempts,
    nextAttemptAt: done ? now : new Date(now.getTime() + d.retryMs),
    ...extra,
  });
  if (!saved) d.logger.warn({ erasureId: r.id }, 'erasure lease lost before its step was saved; the next holder repeats it');
}

/** Runs passes until stopped: at once while work is due, every pollMs otherwise. */
export function startErasureRunner(d: ErasureRunnerDeps & { pollMs: number }): Stoppable {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      let outcome: PassOutcome | undefined;
      try {
        outcome = await runErasurePass(d);
      } catch (err) {
        d.logger.warn({ code: toTidemarkError(err).code }, 'erasure runner could not read its ledger');
      }
      if (!outcome || outcome === 'failed' || outcome === 'waiting') await sleep(d.pollMs, abort.signal);
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
