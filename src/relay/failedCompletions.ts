// How relayOnce (relayEngine.ts) completes the records of a pass that failed: outage failures (and
// unknown ones judged an outage) release their rows without spending an attempt, unless they are past
// the last-resort age; the rest spend the record's attempt, grouped (failureGroups.ts), retried later
// or given up. Kept apart so the engine reads as its steps: claim, publish, complete.
import type { Claim, PublicationTable, RelayPass, RelayRecord } from '../publication/relayPort/publicationTable';
import { summarizeError } from '../shared/redact';
import { failureGroups } from './failureGroups';
import type { PublishResult } from './kafkaSink';
import type { BatchReport, RelayDeps } from './relayDeps';

/** One pass over one claim: what its completions need, and the report they add to. */
export interface BatchRun {
  table: PublicationTable;
  d: RelayDeps;
  pass: RelayPass;
  claim: Claim;
  report: BatchReport;
  byId: Map<number, RelayRecord>;
}

type Failure = PublishResult['failed'][number];

export async function completeFailed(run: BatchRun, result: PublishResult): Promise<void> {
  const { d } = run;
  const kinds = new Set(result.failed.map((f) => f.kind));
  // Unknown failures are the records' own when the cluster demonstrably works.
  let unknownIs: 'record' | 'outage' = 'record';
  if (kinds.has('unknown') && result.sent.length === 0)
    unknownIs = kinds.has('outage') ? 'outage' : (await d.circuit.probe()) ? 'record' : 'outage';
  const outage = result.failed.filter((f) => f.kind === 'outage' || (f.kind === 'unknown' && unknownIs === 'outage'));
  const recordFailures = result.failed.filter((f) => !(f.kind === 'outage' || (f.kind === 'unknown' && unknownIs === 'outage')));
  if (outage.length) recordFailures.push(...(await releaseOutage(run, outage, result.sent.length === 0)));
  await markRecordFailures(run, recordFailures);
}

/** Releases the outage's rows (opening the circuit when nothing got through); returns those too old to release. */
async function releaseOutage({ d, pass, claim, report, byId }: BatchRun, outage: Failure[], nothingSent: boolean): Promise<Failure[]> {
  report.outage = nothingSent;
  if (report.outage) d.circuit.failed(outage[0]!.error);
  const error = summarizeError(outage[0]!.error);
  const tooOld = (f: Failure) => d.giveUpAgeMs > 0 && byId.get(f.id)!.ageMs >= d.giveUpAgeMs;
  const old = outage.filter(tooOld);
  const release = outage.filter((f) => !tooOld(f)).map((f) => byId.get(f.id)!);
  if (release.length) {
    const n = await pass.release(claim.token, release, d.policy.delayMs(1), error);
    report.released += n;
    report.claimLost += release.length - n;
    d.metrics.released(n);
  }
  return old;
}

/** Spends the records' attempts, one guarded UPDATE per failure group; given-up ones are logged. */
async function markRecordFailures({ table, d, pass, claim, report, byId }: BatchRun, recordFailures: Failure[]): Promise<void> {
  const failed = recordFailures.map((f) => ({ record: byId.get(f.id)!, error: summarizeError(f.error) }));
  for (const g of failureGroups(failed, d)) {
    const n = await pass.markFailed(claim.token, g);
    report.claimLost += g.records.length - n;
    if (g.giveUp) {
      report.gaveUp += n;
      d.metrics.gaveUp(n);
      d.logger.error(
        {
          table: table.table,
          store: table.store.name,
          eventIds: g.records.slice(0, 20).map((r) => r.eventId),
          count: n,
          errorCode: g.error.code,
        },
        `publications moved to ${table.gaveUpState}; an operator replay is needed once the cause is fixed`,
      );
    } else {
      report.failed += n;
      d.metrics.failed(n);
    }
  }
}
