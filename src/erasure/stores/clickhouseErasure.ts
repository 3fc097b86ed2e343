// The ClickHouse store of an erasure ('clickhouse' on the certificate): a guard no writer passes, then
// the physical deletion of every row of the erased aggregates, in every table that may hold one.
//   erase: 1. guard rows in erased_aggregates for job.aggregateIds (idempotent; the first guard time is kept).
//          2. wait until 3 × ERASURE_GUARD_REFRESH_MS after the guard time read back from the table (so a
//             repeated call after a crash waits only what is left): every writer's cache
//             (projections/erased/erasedAggregatesCache.ts) has the ids by then, and a flush checked
//             against the older set has landed, so the deletion catches it.
//          3. ALTER TABLE ... DELETE (a mutation: sql/deleteAggregateRows.ts) of the aggregates' rows from
//             the projection table, its rebuild shadows and retired tables, and projector_dead_letters.
//          done once a count finds none of them; a mutation still running or failing: done = false and
//          the runner calls again (erase is idempotent).
//   verify: a read-only count per table of rows of job.aggregateIds, plus projection rows of the subject
//          written before job.startedAt (a result the source no longer listed but the read side kept).
//          Rows of a student who came back (new aggregates, written after startedAt) are neither erased
//          nor found.
// Mode 'pseudonymise' (a customer's orders): clickhousePseudonymisation.ts, with this file's tables and conditions.
// Nothing personal reaches a note or an error: table names and counts only.
import type { ErasureJob, StoreErasure, StoreSearch, StoreStepResult } from '../../domains/contract/erasure';
import { ident, list, str, uint } from '../../infra/clickhouse/literal';
import { insertErased } from '../../projections/erased/insertErased';
import { erasedAmong } from '../../projections/erased/selectErased';
import { sleep as pause } from '../../shared/lifecycle';
import { clickhousePseudonymisation, type PseudonymisationDeps } from './clickhousePseudonymisation';
import { countWhere } from './sql/countAggregateRows';
import { mutationsPending } from '../../infra/clickhouse/mutations';
import { deleteWhere, hasMutationsSync } from './sql/deleteAggregateRows';
import { columnType, erasableTables, type ErasableProjection } from './sql/erasableTables';

export type { ErasableProjection } from './sql/erasableTables';

/** The ClickHouse erasure's connections and settings (PseudonymisationDeps), and a sleep tests may replace. */
export interface ClickHouseErasureDeps extends PseudonymisationDeps {
  sleep?: (ms: number) => Promise<void>;
}

const DEAD_LETTERS: ErasableProjection = { table: 'projector_dead_letters', aggregateIdColumn: 'aggregate_id' };
const CHUNK = 1000;

export function clickhouseErasure(d: ClickHouseErasureDeps): StoreErasure {
  const sleep = d.sleep ?? ((ms: number) => pause(ms));
  let sync: Promise<boolean> | undefined;

  /** The condition matching the job's aggregates in `table` (ids as literals of the id column's type). */
  async function idsWhere(table: string, p: ErasableProjection, job: ErasureJob, ids: readonly string[]): Promise<string> {
    const type = (await columnType(d.ch, d.database, table, p.aggregateIdColumn)) ?? 'String';
    const literal = /^(Nullable\()?U?Int\d+/.test(type) ? (id: string) => (/^\d+$/.test(id) ? uint(id) : 'NULL') : str;
    const domain = p === DEAD_LETTERS ? `domain = ${str(job.domain)} AND ` : '';
    return `${domain}${ident(p.aggregateIdColumn)} IN ${list(ids, literal)}`;
  }

  async function targets(job: ErasureJob) {
    const out: Array<{ p: ErasableProjection; storage: string[]; readable: string[] }> = [];
    for (const p of [d.projections(job.domain), DEAD_LETTERS])
      out.push({ p, ...(await erasableTables(d.ch, d.layout, d.database, p.table)) });
    return out;
  }

  /** Rows of the job's aggregates per readable table. */
  async function remaining(job: ErasureJob): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const t of await targets(job))
      for (const table of t.readable)
        for (let i = 0; i < job.aggregateIds.length; i += CHUNK) {
          const where = await idsWhere(table, t.p, job, job.aggregateIds.slice(i, i + CHUNK));
          counts.set(table, (counts.get(table) ?? 0) + (await countWhere(d.ch, d.database, table, where)));
        }
    return counts;
  }

  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

  const pseudonymisation = clickhousePseudonymisation({
    d,
    sleep,
    isSync: () => (sync ??= hasMutationsSync(d.ch)),
    idsWhere,
    deadLetters: DEAD_LETTERS,
  });

  async function erase(job: ErasureJob): Promise<StoreStepResult> {
    if (job.mode === 'pseudonymise') return pseudonymisation.erase(job);
    if (job.aggregateIds.length === 0) return { affected: 0, done: true };
    await insertErased(d.ch, d.database, {
      domain: job.domain,
      aggregateIds: job.aggregateIds,
      erasureId: job.erasureId,
      at: d.clock.now(),
    });
    const guarded = await erasedAmong(d.ch, d.database, job.domain, job.aggregateIds);
    // Never delete before the guard rows are readable: the wait is counted from them.
    if (guarded.size < new Set(job.aggregateIds).size) return { affected: 0, done: false, note: 'the guard rows are not readable yet' };
    const guardAt = Math.max(...guarded.values());
    const wait = guardAt + 3 * d.guard.refreshMs - d.clock.now().getTime();
    if (wait > 0) await sleep(wait);

    const before = await remaining(job);
    if (total(before) === 0) return { affected: 0, done: true };
    sync ??= hasMutationsSync(d.ch);
    const isSync = await sync;
    const mutated: string[] = [];
    for (const t of await targets(job))
      for (const table of t.storage) {
        const readable = d.layout.cluster ? table.replace(/_local$/, '') : table;
        if (!before.get(readable)) continue;
        for (let i = 0; i < job.aggregateIds.length; i += CHUNK)
          await deleteWhere(
            d.ch,
            d.layout,
            d.database,
            table,
            await idsWhere(table, t.p, job, job.aggregateIds.slice(i, i + CHUNK)),
            isSync,
          );
        mutated.push(table);
      }
    const deadline = d.clock.now().getTime() + (d.mutationWaitMs ?? 60000);
    while ((await mutationsPending(d.ch, d.layout, d.database, mutated)) > 0 && d.clock.now().getTime() < deadline) await sleep(100);
    const after = total(await remaining(job));
    const affected = total(before) - after;
    if (after === 0) return { affected, done: true };
    return { affected, done: false, note: `${after} rows in ${mutated.length} tables still wait for their deletion to finish` };
  }

  async function verify(job: ErasureJob): Promise<StoreSearch> {
    if (job.mode === 'pseudonymise') return pseudonymisation.verify(job);
    const counts = job.aggregateIds.length ? await remaining(job) : new Map<string, number>();
    const searched = new Set(counts.keys());
    const p = d.projections(job.domain);
    let subjectRows = 0;
    if (p.subjectColumn && p.writtenAtMsColumn) {
      const t = await erasableTables(d.ch, d.layout, d.database, p.table);
      for (const table of t.readable) {
        const numeric = /^U?Int\d+/.test((await columnType(d.ch, d.database, table, p.subjectColumn)) ?? 'String');
        searched.add(table);
        // A subject id that is no number cannot be in a numeric column: nothing to count there.
        if (numeric && !/^\d+$/.test(job.subjectId)) continue;
        const subject = numeric ? uint(job.subjectId) : str(job.subjectId);
        // Rows of the job's aggregates are counted above already; these are the subject's others.
        const others = job.aggregateIds.length ? ` AND NOT (${await idsWhere(table, p, job, job.aggregateIds)})` : '';
        const where = `${ident(p.subjectColumn)} = ${subject} AND ${ident(p.writtenAtMsColumn)} < ${uint(job.startedAt.getTime())}${others}`;
        subjectRows += await countWhere(d.ch, d.database, table, where);
      }
    }
    const found = total(counts) + subjectRows;
    return {
      store: 'clickhouse',
      searched: [...searched].sort(),
      searchedAt: d.clock.now(),
      found,
      ...(found ? { note: `${found} rows of the erased aggregates remain` } : {}),
    };
  }

  return { store: 'clickhouse', erase, verify };
}
