// The suite's own judge, independent of the code under test: it reads the authoritative rows (every
// fitness shard's live rows and deletion log, the orders table) and the latest state per aggregate in
// ClickHouse (argMax by version over every physical row), and lists every difference by business
// content. It also checks the workload's model (every acknowledged write) against the stores, and
// counts what is parked, dead-lettered or still pending on its way to Kafka.
import type { Resources } from '../../../src/app/resources';
import { ident } from '../../../src/infra/clickhouse/literal';
import { canonical3, type Workload } from './workload';

export interface FitnessTruth {
  version: number;
  result: string;
  unit: string;
  isDeleted: boolean;
  detectId: number;
  userId: number;
  projectId: number;
  schoolId: number;
  grade: number;
}
export interface OrderTruth {
  customerId: string;
  currency: string;
  total: string;
  itemCount: number;
}

export interface Difference {
  domain: 'fitness' | 'orders';
  id: string;
  kind: 'MISSING' | 'STALE_VERSION' | 'CONTENT_MISMATCH' | 'DELETION_NOT_APPLIED' | 'UNEXPECTED_ROW';
  store?: unknown;
  projection?: unknown;
}

const canonical4 = (v: string) => {
  const [i, f = ''] = String(v).split('.');
  return `${i}.${(f + '0000').slice(0, 4)}`;
};

export async function readFitnessTruth(r: Resources): Promise<Map<string, FitnessTruth>> {
  const out = new Map<string, FitnessTruth>();
  for (const sh of r.mysql.shards) {
    const cols = 'data_id, version, CAST(result AS CHAR) AS result, unit, detect_id, user_id, project_id, school_id, grade';
    const [live] = (await sh.db.raw(`SELECT ${cols}, 0 AS is_deleted FROM fitness_results`)) as [Record<string, unknown>[]];
    const [gone] = (await sh.db.raw(`SELECT ${cols}, 1 AS is_deleted FROM fitness_result_deletions`)) as [Record<string, unknown>[]];
    for (const row of [...live, ...gone]) {
      const t: FitnessTruth = {
        version: Number(row.version),
        result: canonical3(String(row.result)),
        unit: String(row.unit),
        isDeleted: Number(row.is_deleted) === 1,
        detectId: Number(row.detect_id),
        userId: Number(row.user_id),
        projectId: Number(row.project_id),
        schoolId: Number(row.school_id),
        grade: Number(row.grade),
      };
      const id = String(row.data_id);
      const prev = out.get(id);
      if (!prev || prev.version < t.version) out.set(id, t);
    }
  }
  return out;
}

export async function readFitnessProjection(r: Resources): Promise<Map<string, FitnessTruth & { physical: number }>> {
  const db = ident(r.settings.clickhouseDatabase);
  // Aliases never reuse a column name used inside an aggregate (ClickHouse 18.16 resolves them first).
  const rs = await r.clickhouse.query({
    query: `SELECT toString(data_id) AS id, max(version) AS v, toString(argMax(result, version)) AS r, argMax(unit, version) AS u,
      argMax(is_deleted, version) AS d, argMax(detect_id, version) AS det, argMax(user_id, version) AS usr, argMax(project_id, version) AS prj,
      argMax(school_id, version) AS sch, argMax(grade, version) AS grd, count() AS physical
      FROM ${db}.fitness_results GROUP BY data_id`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<Record<string, string | number>>();
  return new Map(
    rows.map((x) => [
      String(x.id),
      {
        version: Number(x.v),
        result: canonical3(String(x.r)),
        unit: String(x.u),
        isDeleted: Number(x.d) === 1,
        detectId: Number(x.det),
        userId: Number(x.usr),
        projectId: Number(x.prj),
        schoolId: Number(x.sch),
        grade: Number(x.grd),
        physical: Number(x.physical),
      },
    ]),
  );
}

export async function readOrdersTruth(r: Resources): Promise<Map<string, OrderTruth>> {
  const rows = (await r.pg.raw('SELECT order_id, customer_id, currency, total::text AS total, item_count FROM orders')).rows as Record<
    string,
    unknown
  >[];
  return new Map(
    rows.map((x) => [
      String(x.order_id),
      {
        customerId: String(x.customer_id),
        currency: String(x.currency),
        total: canonical4(String(x.total)),
        itemCount: Number(x.item_count),
      },
    ]),
  );
}

export async function readOrdersProjection(r: Resources): Promise<Map<string, OrderTruth & { physical: number }>> {
  const db = ident(r.settings.clickhouseDatabase);
  const rs = await r.clickhouse.query({
    query: `SELECT order_id AS id, argMax(customer_id, version) AS c, argMax(currency, version) AS cur, toString(argMax(total, version)) AS t,
      argMax(item_count, version) AS n, argMax(is_deleted, version) AS d, count() AS physical FROM ${db}.orders GROUP BY order_id`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<Record<string, string | number>>();
  return new Map(
    rows
      .filter((x) => Number(x.d) === 0)
      .map((x) => [
        String(x.id),
        {
          customerId: String(x.c),
          currency: String(x.cur),
          total: canonical4(String(x.t)),
          itemCount: Number(x.n),
          physical: Number(x.physical),
        },
      ]),
  );
}

function sameFitness(a: FitnessTruth, b: FitnessTruth): boolean {
  return (
    a.result === b.result &&
    a.unit === b.unit &&
    a.detectId === b.detectId &&
    a.userId === b.userId &&
    a.projectId === b.projectId &&
    a.schoolId === b.schoolId &&
    a.grade === b.grade
  );
}

/** Every difference between the authoritative stores and ClickHouse, by business content. */
export async function compareStores(
  r: Resources,
): Promise<{ differences: Difference[]; fitnessRows: number; orderRows: number; physicalRows: number }> {
  const [ft, fp, ot, op] = await Promise.all([readFitnessTruth(r), readFitnessProjection(r), readOrdersTruth(r), readOrdersProjection(r)]);
  const differences: Difference[] = [];
  for (const [id, t] of ft) {
    const p = fp.get(id);
    if (!p) differences.push({ domain: 'fitness', id, kind: 'MISSING', store: t });
    else if (p.version < t.version)
      differences.push({ domain: 'fitness', id, kind: t.isDeleted ? 'DELETION_NOT_APPLIED' : 'STALE_VERSION', store: t, projection: p });
    else if (p.version > t.version || p.isDeleted !== t.isDeleted || !sameFitness(p, t))
      differences.push({ domain: 'fitness', id, kind: 'CONTENT_MISMATCH', store: t, projection: p });
  }
  for (const id of fp.keys()) if (!ft.has(id)) differences.push({ domain: 'fitness', id, kind: 'UNEXPECTED_ROW', projection: fp.get(id) });
  for (const [id, t] of ot) {
    const p = op.get(id);
    if (!p) differences.push({ domain: 'orders', id, kind: 'MISSING', store: t });
    else if (p.total !== t.total || p.currency !== t.currency || p.customerId !== t.customerId || p.itemCount !== t.itemCount)
      differences.push({ domain: 'orders', id, kind: 'CONTENT_MISMATCH', store: t, projection: p });
  }
  for (const id of op.keys()) if (!ot.has(id)) differences.push({ domain: 'orders', id, kind: 'UNEXPECTED_ROW', projection: op.get(id) });
  const physicalRows = [...fp.values(), ...op.values()].reduce((n, x) => n + x.physical, 0);
  return { differences, fitnessRows: ft.size, orderRows: ot.size, physicalRows };
}

/** Acknowledged writes the stores do not hold (lost commits), and model rows the stores disagree with. */
export async function checkModel(r: Resources, w: Workload): Promise<{ lost: string[]; mismatched: string[] }> {
  const [ft, ot] = await Promise.all([readFitnessTruth(r), readOrdersTruth(r)]);
  const lost: string[] = [];
  const mismatched: string[] = [];
  for (const a of w.acknowledged) {
    const v = a.domain === 'fitness' ? ft.get(a.id)?.version : ot.has(a.id) ? 1 : undefined;
    if (v === undefined || v < a.version) lost.push(`${a.domain}:${a.id}@v${a.version}`);
  }
  for (const [id, m] of w.fitness) {
    const t = ft.get(id);
    if (
      !t ||
      t.version !== m.version ||
      t.isDeleted !== m.isDeleted ||
      (!m.isDeleted && (t.result !== canonical3(m.result) || t.unit !== m.unit))
    )
      mismatched.push(`fitness:${id}`);
  }
  for (const [id, m] of w.orders) {
    const t = ot.get(id);
    if (!t || t.total !== canonical4(m.total) || t.currency !== m.currency) mismatched.push(`orders:${id}`);
  }
  return { lost, mismatched };
}

/** Acknowledged writes whose version ClickHouse does not show yet (the recovery clock polls this). */
export async function notYetVisible(r: Resources, acked: { domain: 'fitness' | 'orders'; id: string; version: number }[]): Promise<number> {
  const [fp, op] = await Promise.all([readFitnessProjection(r), readOrdersProjection(r)]);
  return acked.filter((a) => (a.domain === 'fitness' ? (fp.get(a.id)?.version ?? 0) < a.version : !op.has(a.id))).length;
}

export interface PublicationBacklog {
  pending: number;
  parked: number;
  deadLettered: number;
}

/** Outbox and fallback rows on every store: still on their way, PARKED, or DEAD_LETTER. */
export async function publicationBacklog(r: Resources): Promise<PublicationBacklog> {
  const out: PublicationBacklog = { pending: 0, parked: 0, deadLettered: 0 };
  const count = async (q: Promise<unknown>) => {
    const res = (await q) as { rows?: Record<string, unknown>[] } | [Record<string, unknown>[]];
    const rows = Array.isArray(res) ? res[0] : res.rows!;
    return rows.map((x) => ({ status: String(x.status), n: Number(x.n) }));
  };
  const stores = [...r.mysql.shards.map((s) => s.db), r.pg];
  for (const db of stores) {
    for (const x of await count(db.raw('SELECT status, COUNT(*) AS n FROM outbox_events GROUP BY status'))) {
      if (x.status === 'PARKED') out.parked += x.n;
      else if (x.status !== 'SENT') out.pending += x.n;
    }
    for (const x of await count(db.raw('SELECT status, COUNT(*) AS n FROM event_publications GROUP BY status'))) {
      if (x.status === 'DEAD_LETTER') out.deadLettered += x.n;
      else if (x.status === 'NOT_PUBLISHED') out.pending += x.n;
    }
  }
  return out;
}
