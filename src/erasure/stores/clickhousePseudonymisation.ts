// The ClickHouse store of an erasure in mode 'pseudonymise' (a customer: the orders keep their financial
// rows, the customer's identifier is replaced by pseudonymOf(job)). Driven by clickhouseErasure.ts,
// which owns the tables and the id conditions:
//   erase: 1. guard rows in erased_aggregates WITH the pseudonym (idempotent; the first guard time is
//             kept): every writer (projector, dead-letter replay) then rewrites the subject column of
//             the aggregates' rows to the pseudonym instead of dropping them (projections/erased/withPseudonyms.ts),
//             and no longer writes their dead letters; reconciliation keeps comparing them (erasedAmong
//             lists deletions only).
//          2. wait until 3 × ERASURE_GUARD_REFRESH_MS after the guard time, as a deletion does.
//          3. ALTER TABLE ... UPDATE <subject column> = <pseudonym> WHERE the aggregates' rows still name
//             the subject (sql/updateAggregateRows.ts) on the projection, its shadows and retired tables
//             (and each writer column, orders changed_by, where it holds the subject's id: a customer
//             that placed its own order; another writer, an operator, is no personal trace of it),
//             and ALTER TABLE ... DELETE of the aggregates' rows from projector_dead_letters.
//          done once a count finds no row of the aggregates naming the subject and no dead letter of them.
//   verify: rows naming the subject written before job.startedAt (any aggregate: the read side may keep
//          one the source no longer listed), plus dead letters of the aggregates. A customer who came
//          back after startedAt has later write times: neither rewritten nor found.
// Nothing personal reaches a note or an error: table names and counts only.
import { pseudonymOf, type ErasureJob, type StoreSearch, type StoreStepResult } from '../../domains/contract/erasure';
import { mutationsPending } from '../../infra/clickhouse/mutations';
import { ident, str, uint } from '../../infra/clickhouse/literal';
import { insertErased } from '../../projections/erased/insertErased';
import { erasedAmong } from '../../projections/erased/selectErased';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ClickHouseLayout } from '../../infra/clickhouse/layout';
import type { Clock } from '../../shared/clock';
import type { Domain } from '../../shared/domain';
import { TidemarkError } from '../../shared/errors';
import { countWhere } from './sql/countAggregateRows';
import { deleteWhere } from './sql/deleteAggregateRows';
import { columnType, erasableTables, type ErasableProjection } from './sql/erasableTables';
import { updateWhere } from './sql/updateAggregateRows';

/** The ClickHouse erasure's connections and settings, shared by both modes (clickhouseErasure.ts extends it). */
export interface PseudonymisationDeps {
  ch: ClickHouseClient;
  database: string;
  layout: ClickHouseLayout;
  /** ERASURE_GUARD_REFRESH_MS of the writers' caches. */
  guard: { refreshMs: number };
  projections: (domain: Domain) => ErasableProjection;
  clock: Clock;
  /** How long one erase call waits for the mutations before it answers done = false (default 60 s). */
  mutationWaitMs?: number;
}

export interface PseudonymisationParts {
  d: PseudonymisationDeps;
  sleep(ms: number): Promise<void>;
  /** Whether the server runs mutations synchronously (mutations_sync). */
  isSync(): Promise<boolean>;
  /** The condition matching some of the job's aggregates in a table. */
  idsWhere(table: string, p: ErasableProjection, job: ErasureJob, ids: readonly string[]): Promise<string>;
  deadLetters: ErasableProjection;
}

const CHUNK = 1000;

export function clickhousePseudonymisation(x: PseudonymisationParts) {
  const { d } = x;

  function subjectOf(job: ErasureJob): Required<ErasableProjection> {
    const p = d.projections(job.domain);
    if (!p.subjectColumn || !p.writtenAtMsColumn)
      throw new TidemarkError('INTERNAL', `the ${job.domain} projection has no subject column to pseudonymise`, { retriable: false });
    return p as Required<ErasableProjection>;
  }

  /**
   * `column = <subject>` in the column's type, or undefined when the subject cannot be in it (no number
   * for a numeric column; a writer column a table made before it existed does not have).
   */
  async function namesSubject(table: string, column: string, job: ErasureJob, optional = false): Promise<string | undefined> {
    const type = await columnType(d.ch, d.database, table, column);
    if (type === undefined && optional) return undefined;
    const numeric = /^U?Int\d+/.test(type ?? 'String');
    if (numeric && !/^\d+$/.test(job.subjectId)) return undefined;
    return `${ident(column)} = ${numeric ? uint(job.subjectId) : str(job.subjectId)}`;
  }

  /** Each column of a table that may name the subject (the subject column, then the writer columns) with its condition. */
  async function subjectConditions(table: string, p: Required<ErasableProjection>, job: ErasureJob) {
    const out: { column: string; where: string }[] = [];
    for (const [i, column] of [p.subjectColumn, ...(p.writerColumns ?? [])].entries()) {
      const where = await namesSubject(table, column, job, i > 0);
      if (where) out.push({ column, where });
    }
    return out;
  }

  /** A row naming the subject in any of its columns, or undefined when none can. */
  const anyOf = (cs: { where: string }[]) => (cs.length ? `(${cs.map((c) => c.where).join(' OR ')})` : undefined);

  /** Per readable table: rows of the job's aggregates still naming the subject, and dead letters of them. */
  async function remaining(job: ErasureJob): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const add = (t: string, n: number) => counts.set(t, (counts.get(t) ?? 0) + n);
    const p = subjectOf(job);
    for (const table of (await erasableTables(d.ch, d.layout, d.database, p.table)).readable) {
      const subject = anyOf(await subjectConditions(table, p, job));
      add(table, 0);
      if (subject)
        for (let i = 0; i < job.aggregateIds.length; i += CHUNK)
          add(
            table,
            await countWhere(
              d.ch,
              d.database,
              table,
              `${subject} AND ${await x.idsWhere(table, p, job, job.aggregateIds.slice(i, i + CHUNK))}`,
            ),
          );
    }
    for (const table of (await erasableTables(d.ch, d.layout, d.database, x.deadLetters.table)).readable)
      for (let i = 0; i < job.aggregateIds.length; i += CHUNK)
        add(
          table,
          await countWhere(d.ch, d.database, table, await x.idsWhere(table, x.deadLetters, job, job.aggregateIds.slice(i, i + CHUNK))),
        );
    return counts;
  }

  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

  async function erase(job: ErasureJob): Promise<StoreStepResult> {
    if (job.aggregateIds.length === 0) return { affected: 0, done: true };
    const p = subjectOf(job);
    const pseudonym = pseudonymOf(job);
    await insertErased(d.ch, d.database, {
      domain: job.domain,
      aggregateIds: job.aggregateIds,
      erasureId: job.erasureId,
      at: d.clock.now(),
      pseudonym,
    });
    const guarded = await erasedAmong(d.ch, d.database, job.domain, job.aggregateIds);
    if (guarded.size < new Set(job.aggregateIds).size) return { affected: 0, done: false, note: 'the guard rows are not readable yet' };
    const wait = Math.max(...guarded.values()) + 3 * d.guard.refreshMs - d.clock.now().getTime();
    if (wait > 0) await x.sleep(wait);

    const before = await remaining(job);
    if (total(before) === 0) return { affected: 0, done: true };
    const sync = await x.isSync();
    const readableOf = (table: string) => (d.layout.cluster ? table.replace(/_local$/, '') : table);
    const mutated: string[] = [];
    for (const table of (await erasableTables(d.ch, d.layout, d.database, p.table)).storage) {
      if (!before.get(readableOf(table))) continue;
      const conditions = await subjectConditions(table, p, job);
      if (!conditions.length) continue;
      for (let i = 0; i < job.aggregateIds.length; i += CHUNK) {
        const ids = await x.idsWhere(table, p, job, job.aggregateIds.slice(i, i + CHUNK));
        // One mutation per column: each column changes only where it names the subject itself.
        for (const c of conditions)
          await updateWhere(d.ch, d.layout, d.database, table, `${ident(c.column)} = ${str(pseudonym)}`, `${c.where} AND ${ids}`, sync);
      }
      mutated.push(table);
    }
    for (const table of (await erasableTables(d.ch, d.layout, d.database, x.deadLetters.table)).storage) {
      if (!before.get(readableOf(table))) continue;
      for (let i = 0; i < job.aggregateIds.length; i += CHUNK)
        await deleteWhere(
          d.ch,
          d.layout,
          d.database,
          table,
          await x.idsWhere(table, x.deadLetters, job, job.aggregateIds.slice(i, i + CHUNK)),
          sync,
        );
      mutated.push(table);
    }
    const deadline = d.clock.now().getTime() + (d.mutationWaitMs ?? 60000);
    while ((await mutationsPending(d.ch, d.layout, d.database, mutated)) > 0 && d.clock.now().getTime() < deadline) await x.sleep(100);
    const after = total(await remaining(job));
    const affected = total(before) - after;
    if (after === 0) return { affected, done: true };
    return { affected, done: false, note: `${after} rows in ${mutated.length} tables still wait for their rewrite to finish` };
  }

  async function verify(job: ErasureJob): Promise<StoreSearch> {
    const p = subjectOf(job);
    const searched = new Set<string>();
    let found = 0;
    for (const table of (await erasableTables(d.ch, d.layout, d.database, p.table)).readable) {
      searched.add(table);
      const subject = anyOf(await subjectConditions(table, p, job));
      if (subject)
        found += await countWhere(
          d.ch,
          d.database,
          table,
          `${subject} AND ${ident(p.writtenAtMsColumn)} < ${uint(job.startedAt.getTime())}`,
        );
    }
    for (const table of (await erasableTables(d.ch, d.layout, d.database, x.deadLetters.table)).readable) {
      searched.add(table);
      for (let i = 0; i < job.aggregateIds.length; i += CHUNK)
        found += await countWhere(
          d.ch,
          d.database,
          table,
          await x.idsWhere(table, x.deadLetters, job, job.aggregateIds.slice(i, i + CHUNK)),
        );
    }
    return {
      store: 'clickhouse',
      searched: [...searched].sort(),
      searchedAt: d.clock.now(),
      found,
      ...(found ? { note: `${found} rows still name the subject or are dead letters of its aggregates` } : {}),
    };
  }

  return { erase, verify };
}
