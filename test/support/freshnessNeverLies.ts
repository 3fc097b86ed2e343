// The property behind issue 28 ("FRESH means it"), against the real engines: a marker may say FRESH
// only if every version committed before the read began is in the answer. Workers record a result
// (2.21), read it back, correct it (2.31) and read it back at once every 20 ms until version 2 shows,
// through a lookup (fitnessResult), a list (fitnessResults of the round's campaign) and a report
// (fitnessReport max), while the relay and the projector run as separate Tidemark instances and a
// background load writes elsewhere on the same topic. Every answer is checked against the version
// committed before its request was sent; the counts are returned (and printed) so a run can be
// compared before and after a change. Bounded by a time budget, never by asserting timings.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { sleep } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  FitnessReportByDocument,
  FitnessResultByIdDocument,
  FitnessResultsPageDocument,
  RecordFitnessResultDocument,
} from '../generated/graphql';
import { execute, isFetchFailure, type GraphQLResponse } from './graphqlClient';

export type ReadKind = 'lookup' | 'list' | 'report';

export interface PropertyCounts {
  rounds: number;
  reads: Record<ReadKind, number>;
  fresh: Record<ReadKind, number>;
  /** FRESH answers showing a version older than the one committed before the request. */
  lies: Record<ReadKind, number>;
  examples: string[];
  /** Writes the gateway refused for good (the round is skipped), by error code. */
  writeFailures: string[];
  /** Writes refused as retriable (a busy result) and then accepted when asked again, as a client does. */
  writeRetries: number;
  /** Requests whose connection dropped (left out of the property, reported). */
  transportFailures: number;
  /** Total time spent in reads (three at a time), for the mean latency. */
  readMs: number;
}

const zero = (): Record<ReadKind, number> => ({ lookup: 0, list: 0, report: 0 });
/** The report's max tells which version it aggregated: 2.210 is version 1, 2.310 version 2. */
const versionOfMax = (max: string | undefined): number => (max === '2.310' ? 2 : max === '2.210' ? 1 : 0);

export async function runFreshnessProperty(o: {
  url: string;
  writer: Record<string, string>;
  reader: Record<string, string>;
  reporter: Record<string, string>;
  workers: number;
  budgetMs: number;
  /**
   * The evidence the run must gather to prove anything (rounds, and FRESH answers of every shape): past
   * `budgetMs` it goes on until it has it, up to `maxBudgetMs`. A machine busy with other suites (CI ran
   * this beside the fault suite's own engines and saw reads of 5.5 s instead of 0.14 s) reads slowly
   * for a while; the property is the same, it only takes longer to gather enough answers.
   */
  enough?: { rounds: number; fresh: number };
  maxBudgetMs?: number;
  campaignBase: number;
}): Promise<PropertyCounts> {
  const c: PropertyCounts = {
    rounds: 0,
    reads: zero(),
    fresh: zero(),
    lies: zero(),
    examples: [],
    writeFailures: [],
    writeRetries: 0,
    transportFailures: 0,
    readMs: 0,
  };
  const refused = (r: { errors?: { message: string; extensions?: { code?: string } }[] }) =>
    c.writeFailures.push(String(r.errors?.[0]?.extensions?.code ?? r.errors?.[0]?.message ?? 'no data'));
  /**
   * A request the connection dropped (reset, or no connection) is counted and left out: it says nothing
   * of what a FRESH marker vouches for, and a write's outcome is then unknown. Anything else is thrown.
   */
  const transportOnly = (err: unknown): undefined => {
    if (!isFetchFailure(err)) throw err;
    c.transportFailures++;
    return undefined;
  };
  /**
   * A write, asked again (up to 4 times, 100 ms doubling) while the gateway refuses it as retriable: a
   * lock wait on a machine busy with other suites answers "busy; retry", and a client honours the flag.
   * Safe to repeat: a record carries an idempotency key and a correction its expected version.
   */
  async function write<T, V>(doc: TypedDocumentNode<T, V>, vars: V): Promise<GraphQLResponse<T> | undefined> {
    for (let attempt = 1; ; attempt++) {
      const res = await execute(o.url, doc, vars, o.writer).catch(transportOnly);
      if (!res?.errors?.[0]?.extensions?.retriable || attempt >= 5) return res;
      c.writeRetries++;
      await sleep(100 * 2 ** (attempt - 1));
    }
  }
  const started = Date.now();
  const goOn = () => {
    const spent = Date.now() - started;
    if (spent < o.budgetMs) return true;
    const need = o.enough ?? { rounds: 0, fresh: 0 };
    const short = c.rounds < need.rounds || Math.min(c.fresh.lookup, c.fresh.list, c.fresh.report) < need.fresh;
    return short && spent < (o.maxBudgetMs ?? o.budgetMs);
  };

  /** Reads the three shapes once (concurrently), checks each, and says which versions they showed. */
  async function readAll(dataId: string, detectId: number, committed: number): Promise<{ shown: number[]; allFresh: boolean }> {
    const check = (kind: ReadKind, status: string, shown: number) => {
      c.reads[kind]++;
      if (status !== 'FRESH') return;
      c.fresh[kind]++;
      if (shown < committed) {
        c.lies[kind]++;
        if (c.examples.length < 5) c.examples.push(`${kind} of ${dataId}: FRESH with version ${shown}, committed ${committed}`);
      }
    };
    const t0 = Date.now();
    const [l, p, r] = await Promise.all([
      execute(o.url, FitnessResultByIdDocument, { dataId }, o.reader),
      execute(o.url, FitnessResultsPageDocument, { filter: { detectId, projectId: 3 }, first: 10 }, o.reader),
      execute(o.url, FitnessReportByDocument, { detectId, projectId: 3, groupBy: 'SCHOOL' }, o.reporter),
    ]);
    c.readMs += Date.now() - t0;
    for (const x of [l, p, r]) if (x.errors || !x.data) throw new Error(`read failed: ${JSON.stringify(x.errors ?? x.status)}`);
    const lookup = l.data!.fitnessResult;
    const list = p.data!.fitnessResults;
    const report = r.data!.fitnessReport;
    const shown = [
      lookup.result?.version ?? 0,
      list.nodes.find((n) => n.dataId === dataId)?.version ?? 0,
      versionOfMax(report.groups[0]?.max),
    ];
    check('lookup', lookup.freshness.status, shown[0]!);
    check('list', list.freshness.status, shown[1]!);
    check('report', report.freshness.status, shown[2]!);
    const allFresh = [lookup, list, report].every((x) => x.freshness.status === 'FRESH');
    return { shown, allFresh };
  }

  /** Reads every 20 ms until every shape shows `version` (and, when asked, says FRESH), or a bound. */
  async function readBack(dataId: string, detectId: number, version: number, untilFresh: boolean, boundMs: number): Promise<void> {
    const until = Date.now() + boundMs;
    for (;;) {
      const read = await readAll(dataId, detectId, version).catch(transportOnly);
      if (!read) {
        if (Date.now() > until) return;
        continue;
      }
      const { shown, allFresh } = read;
      if (shown.every((v) => v >= version) && (!untilFresh || allFresh)) return;
      if (Date.now() > until) return;
      await sleep(20);
    }
  }

  async function worker(w: number): Promise<void> {
    for (let round = 0; goOn(); round++) {
      const detectId = o.campaignBase + w * 1000 + round;
      const userId = 700_000 + w * 1000 + round;
      const idempotencyKey = `fresh-${o.campaignBase}-${w}-${round}`;
      const input = { detectId, projectId: 3, userId, schoolId: 30 + w, grade: 5, result: '2.21', unit: 'm', idempotencyKey };
      const rec = await write(RecordFitnessResultDocument, { input });
      if (!rec) continue;
      if (rec.errors || !rec.data) {
        refused(rec);
        continue;
      }
      const dataId = rec.data.recordFitnessResult.result.dataId;
      await readBack(dataId, detectId, 1, true, 15000);
      const corrected = { dataId, expectedVersion: 1, result: '2.31', unit: 'm' };
      const cor = await write(CorrectFitnessResultDocument, corrected);
      if (!cor) continue; // its outcome is unknown: the round proves nothing and is not counted
      if (cor.errors || !cor.data) {
        refused(cor);
        continue;
      }
      await readBack(dataId, detectId, 2, false, 20000);
      c.rounds++;
    }
  }

  await Promise.all(Array.from({ length: o.workers }, (_, w) => worker(w)));
  return c;
}

export function describeCounts(label: string, c: PropertyCounts): string {
  const kinds: ReadKind[] = ['lookup', 'list', 'report'];
  const total = (r: Record<ReadKind, number>) => kinds.reduce((n, k) => n + r[k], 0);
  const per = kinds.map((k) => `${k} ${c.lies[k]}/${c.fresh[k]}/${c.reads[k]}`).join(', ');
  return (
    `[freshness property ${label}] ${c.rounds} rounds, mean read ${Math.round(c.readMs / Math.max(1, c.reads.lookup))} ms; FRESH-but-old / FRESH / reads: ` +
    `total ${total(c.lies)}/${total(c.fresh)}/${total(c.reads)} (${per})` +
    (c.examples.length ? `; e.g. ${c.examples.join('; ')}` : '') +
    (c.writeFailures.length ? `; writes refused: ${c.writeFailures.length} (${[...new Set(c.writeFailures)].join(', ')})` : '') +
    (c.writeRetries ? `; writes asked again (retriable): ${c.writeRetries}` : '') +
    (c.transportFailures ? `; connections dropped: ${c.transportFailures}` : '')
  );
}
