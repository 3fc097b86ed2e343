// Who sees what in fitness, on the real ClickHouse: every read applies the caller's scope to the
// LATEST version (a result corrected from school 11 to school 99 belongs to 99 only, in lookups,
// pages, a student's other results and reports), students see their own results, and an analyst's
// report suppresses groups with fewer than the minimum number of distinct students.
// Orders: orderScope.int.spec.ts.
import type { Principal } from '../../auth/principal';
import { createRegistry } from '../../metrics/registry';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { projectedRows as rows } from '../../../test/support/projectedRows';
import { fitnessEvent } from '../../../test/support/projectionEvents';
import type { FreshnessService } from '../freshness/freshnessService';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { FITNESS_RESULTS, type FitnessRow } from '../../domains/fitness/projection/fitnessResultsTable';
import { insertRows } from '../sql/insertRows';
import { createReadModels, type ReadModels } from './readModels';
import { fromClickHouseReads } from './readModelStore';

const insertFitnessResults = (ch: ClickHouseClient, db: string, rows: FitnessRow[]) => insertRows(ch, db, FITNESS_RESULTS, rows);

const operator: Principal = { subject: 'op', roles: ['operator'] };
const teacher = (...schoolIds: number[]): Principal => ({ subject: `t-${schoolIds.join('-')}`, roles: ['teacher'], schoolIds });
const student = (userId: number): Principal => ({ subject: `s-${userId}`, roles: ['student'], userId });
const analyst = (schoolIds?: number[]): Principal => ({ subject: 'a', roles: ['analyst'], ...(schoolIds ? { schoolIds } : {}) });

const moved = { detectId: 30001, projectId: 1 };
const small = { detectId: 30002, projectId: 1 };
const ids = (vs: ({ dataId: string } | null)[]) => vs.map((v) => v?.dataId ?? null);

describe('read models within the caller scope (latest version decides)', () => {
  let env: TestEnv;
  let rm: ReadModels;
  const registry = createRegistry(false);

  beforeAll(async () => {
    env = await createTestEnv();
    rm = createReadModels({
      store: fromClickHouseReads(env.resources.clickhouse, { registry }),
      database: env.settings.clickhouseDatabase,
      freshness: {} as FreshnessService,
      maxPageSize: 100,
      reportMinGroupSize: 5,
    });
    const ch = env.resources.clickhouse;
    const db = env.settings.clickhouseDatabase;
    const r = (dataId: number, userId: number, schoolId: number, version: number, c = moved) =>
      fitnessEvent({ ...c, dataId, userId, schoolId, grade: 5, result: '2.000', version });
    // 1001 (student 501) is recorded at school 11, then moved to 99 by a correction (separate parts);
    // 1101 (student 502) stays at school 11.
    await insertFitnessResults(ch, db, rows([r(1001, 501, 11, 1), r(1101, 502, 11, 1)]));
    await insertFitnessResults(ch, db, rows([r(1001, 501, 99, 2)]));
    // School 21: five results of four students (4 members); school 22: five students.
    const s21 = [601, 602, 603, 604, 604].map((u, i) => r(2001 + i * 100, u, 21, 1, small));
    const s22 = [701, 702, 703, 704, 705].map((u, i) => r(3001 + i * 100, u, 22, 1, small));
    await insertFitnessResults(ch, db, rows([...s21, ...s22]));
  });
  afterAll(() => env?.cleanup());

  it('lookups: the latest school decides, an out-of-scope id is null like a missing one', async () => {
    expect(ids(await rm.fitnessByIds(teacher(11), [1001, 1101, 999901]))).toEqual([null, '1101', null]);
    expect(ids(await rm.fitnessByIds(teacher(99), [1001, 1101]))).toEqual(['1001', null]);
    expect(ids(await rm.fitnessByIds(teacher(11, 99), [1001, 1101]))).toEqual(['1001', '1101']);
    expect(ids(await rm.fitnessByIds(student(501), [1001, 1101]))).toEqual(['1001', null]);
    expect(ids(await rm.fitnessByIds(student(502), [1001, 1101]))).toEqual([null, '1101']);
    expect(ids(await rm.fitnessByIds(operator, [1001, 1101]))).toEqual(['1001', '1101']);
  });

  it('coalesces concurrent lookups per scope only: one query per scope, each caller its own answer', async () => {
    const before = await queries('fitnessByIds');
    const [a, b, c] = await Promise.all([
      rm.fitnessByIds(teacher(11), [1001]),
      rm.fitnessByIds(teacher(99), [1001]),
      rm.fitnessByIds(teacher(11), [1101]),
    ]);
    expect([ids(a), ids(b), ids(c)]).toEqual([[null], ['1001'], ['1101']]);
    expect((await queries('fitnessByIds')) - before).toBe(2);
  });

  it('pages and the schoolId filter use the latest version', async () => {
    const page = async (p: Principal, schoolId?: number) =>
      ids((await rm.fitnessPage(p, { ...moved, ...(schoolId ? { schoolId } : {}) }, 10)).nodes);
    expect(await page(teacher(11))).toEqual(['1101']);
    expect(await page(teacher(99))).toEqual(['1001']);
    expect(await page(student(501))).toEqual(['1001']);
    expect(await page(operator)).toEqual(['1001', '1101']);
    expect(await page(operator, 11)).toEqual(['1101']);
    expect(await page(operator, 99)).toEqual(['1001']);
    expect(await page(teacher(99), 11)).toEqual([]);
  });

  it("a student's other results (studentResults) hold only what the caller may see", async () => {
    const key = [{ detectId: moved.detectId, userId: 501 }];
    expect((await rm.fitnessByStudents(teacher(11), key)).map(ids)).toEqual([[]]);
    expect((await rm.fitnessByStudents(teacher(99), key)).map(ids)).toEqual([['1001']]);
    expect((await rm.fitnessByStudents(student(502), key)).map(ids)).toEqual([[]]);
  });

  it('reports aggregate the report scope at the latest school; teachers see every group of theirs', async () => {
    const report = (p: Principal) => rm.fitnessReport(p, { ...moved, groupBy: 'SCHOOL' });
    const keys = async (p: Principal) => (await report(p)).groups.map((g) => [g.key, g.count]);
    expect(await keys(teacher(11))).toEqual([[11, 1]]);
    expect(await keys(teacher(99))).toEqual([[99, 1]]);
    expect(await keys(operator)).toEqual([
      [11, 1],
      [99, 1],
    ]);
    await expect(report(student(501))).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('suppresses analyst groups with fewer distinct students than the minimum, and counts them', async () => {
    const report = (p: Principal) => rm.fitnessReport(p, { ...small, groupBy: 'SCHOOL' });
    const a = await report(analyst());
    expect(a.suppressedGroups).toBe(1); // school 21: 5 results but 4 students
    expect(a.groups.map((g) => [g.key, g.count])).toEqual([[22, 5]]);
    expect(await report(analyst([21]))).toEqual({ groups: [], suppressedGroups: 1 });
    const op = await report(operator);
    expect([op.suppressedGroups, op.groups.map((g) => [g.key, g.count])]).toEqual([
      0,
      [
        [21, 5],
        [22, 5],
      ],
    ]);
  });

  async function queries(name: string): Promise<number> {
    const m = await registry.getSingleMetric('tidemark_read_model_queries_total')!.get();
    return m.values.find((v) => v.labels.query === name)?.value ?? 0;
  }
});
