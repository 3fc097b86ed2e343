// The one relay engine, for both publication tables (the port publication/relayPort/publicationTable.ts,
// which the tables' owner implements): claim a batch (short transaction, SKIP LOCKED, lease from the
// database clock), publish it outside any transaction, then complete it guarded by the claim. Safe
// with any number of relay loops (relayLoop.ts) and processes per store.
//   after claim, before publish      -> rows stay claimed; the lease expires; another claim takes them
//   broker took it, ack lost/timeout -> retried later (a duplicate, never a loss)
//   after publish, before completion -> lease expires, reclaimed, published again (a duplicate)
// Failures are classified (shared/publishFailure.ts). An OUTAGE releases the rows without spending an
// attempt and opens the process's Kafka circuit: the loops stop claiming until a probe finds the
// cluster answering, then resume with a small batch that doubles per good pass (catch-up is paced, not
// a burst). A RECORD failure spends the record's attempt: retry after the RetryPolicy's backoff, and
// give up (PARKED / DEAD_LETTER) when it says so (failureGroups.ts). An UNKNOWN failure is the record's
// when another record of the pass got through or the cluster answers a probe, else an outage. Each
// pass's transitions go through the table's RelayPass, which also tells operators (state changes).
// The failed records' completion is in failedCompletions.ts.
import type { Claim, PublicationTable } from '../publication/relayPort/publicationTable';
import { publishTimeout, withTimeout } from '../shared/timeout';
import { completeFailed, type BatchRun } from './failedCompletions';
import { allFailed, type PublishResult } from './kafkaSink';
import type { BatchReport, RelayDeps } from './relayDeps';
import { traceSends } from './traceSends';

/** Claims, publishes and completes one batch of `table`. */
export async function relayOnce(table: PublicationTable, d: RelayDeps, limit = d.batchSize): Promise<BatchReport> {
  const pass = table.pass(d.stateChanges, d.clock);
  const claim = await pass.claim({ token: d.ids.uuid(), owner: d.owner, leaseMs: d.leaseMs, limit, giveUp: (n) => d.policy.giveUp(n) });
  const report = emptyReport(claim);
  if (claim.gaveUp.length) gaveUpWhileClaiming(table, d, claim);
  if (claim.records.length === 0) {
    pass.end();
    return report;
  }
  d.metrics.claimed(claim.records.length);
  if (claim.reclaimed) d.metrics.reclaimed(claim.reclaimed);
  await d.onStage?.('claimed', claim);

  const { result, publishedAt } = await publish(table, d, claim);
  await d.onStage?.('published', claim);
  const run: BatchRun = { table, d, pass, claim, report, byId: new Map(claim.records.map((r) => [r.id, r])) };
  if (result.sent.length) await completeSent(run, result.sent, publishedAt);
  if (result.failed.length) await completeFailed(run, result);
  if (report.claimLost) {
    d.metrics.claimLost(report.claimLost);
    d.logger.warn(
      { table: table.table, store: table.store.name, count: report.claimLost },
      'completions lost their claim (lease expired and was taken over); left to the new owner',
    );
  }
  pass.end();
  await d.onStage?.('completed', claim);
  return report;
}

function emptyReport(claim: Claim): BatchReport {
  return {
    claimed: claim.records.length,
    reclaimed: claim.reclaimed,
    sent: 0,
    failed: 0,
    gaveUp: claim.gaveUp.length,
    released: 0,
    claimLost: 0,
    outage: false,
  };
}

function gaveUpWhileClaiming(table: PublicationTable, d: RelayDeps, claim: Claim): void {
  d.metrics.gaveUp(claim.gaveUp.length);
  d.logger.warn(
    {
      table: table.table,
      store: table.store.name,
      eventIds: claim.gaveUp.slice(0, 20).map((r) => r.eventId),
      count: claim.gaveUp.length,
    },
    'publications given up while claiming: their claims expired too often',
  );
}

/** Publishes the claim's records, traced and timed; a publish that throws or times out failed them all. */
async function publish(table: PublicationTable, d: RelayDeps, claim: Claim): Promise<{ result: PublishResult; publishedAt: Date }> {
  const endTimer = d.metrics.publishTimer();
  const traced = traceSends(table, claim.records);
  // The relay bounds the publish itself too, whatever the sink does, so a claim is always completed
  // (or abandoned) before its lease can run out under a healthy relay.
  const result = await withTimeout(d.sink.publish(traced.records), d.publishTimeoutMs, () => publishTimeout(d.publishTimeoutMs)).catch(
    (error: unknown): PublishResult => allFailed(claim.records, error),
  );
  // The acknowledgement's time, not the marking's: the notices are ordered by it (relayPass.ts).
  const publishedAt = d.clock.now();
  traced.end(result);
  endTimer(result.failed.length ? 'failed' : 'ok');
  return { result, publishedAt };
}

/** The broker acknowledged them: the circuit is closed again and the rows marked sent. */
async function completeSent({ d, pass, claim, report, byId }: BatchRun, sent: number[], publishedAt: Date): Promise<void> {
  d.circuit.succeeded();
  const marked = await pass.markSent(
    claim.token,
    sent.map((id) => byId.get(id)!),
    publishedAt,
  );
  report.sent = marked;
  report.claimLost += sent.length - marked;
  d.metrics.sent(marked);
}
