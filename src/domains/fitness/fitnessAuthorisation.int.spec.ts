// Authorisation of the fitness write path on real MariaDB shards, enforced by the service: a teacher
// writes only results of its schools (the latest version decides, under the row lock); an existing
// result outside the scope answers exactly like a missing one; students and customers write nothing.
// Who wrote what and per-caller idempotency keys: ./fitnessOwnership.int.spec.ts.
import { teacherInput, useFitnessHarness } from '../../../test/support/fitnessHarness';
import { customerOf, studentOf, teacherOf, TEST_OPERATOR } from '../../../test/support/principals';
import { TidemarkError } from '../../shared/errors';

async function errorOf(p: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TidemarkError) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('fitness write authorisation (sharded MariaDB)', () => {
  const h = useFitnessHarness();
  const teacher77 = teacherOf('teacher-77', 77);
  const teacher90 = teacherOf('teacher-90', 90);
  const row = (id: number) =>
    h
      .shardDb(id % 100)('fitness_results')
      .where({ data_id: id })
      .first();

  it('lets a teacher record results of its schools, recording who wrote them; other schools are FORBIDDEN and write nothing', async () => {
    const ok = await h.as(teacher77).record({ ...teacherInput, userId: 301 });
    expect(ok.result).toMatchObject({ schoolId: 77, version: 1, changedBy: 'teacher-77' });
    expect(await row(ok.result.dataId)).toMatchObject({ school_id: 77, changed_by: 'teacher-77' });
    const before = await h.counts();
    expect(await errorOf(h.as(teacher77).record({ ...teacherInput, userId: 302, schoolId: 78, idempotencyKey: 'k-78' }))).toEqual({
      code: 'FORBIDDEN',
      message: 'a result of school 78 is outside your scope',
      details: {},
    });
    expect(await h.counts()).toEqual(before);
  });

  it('refuses every fitness write to students and customers (FORBIDDEN) and changes nothing', async () => {
    const rec = await h.fitness.record({ ...teacherInput, userId: 303 });
    const id = rec.result.dataId;
    const before = await h.counts();
    for (const p of [studentOf('student-303', 303), customerOf('customer-1', 'c-1')]) {
      for (const attempt of [
        h.as(p).record({ ...teacherInput, userId: 303 }),
        h.as(p).correct({ dataId: id, expectedVersion: 1, result: '2.31', unit: 'm' }),
        h.as(p).delete({ dataId: id, expectedVersion: 1 }),
      ])
        expect(await errorOf(attempt)).toMatchObject({ code: 'FORBIDDEN', message: 'fitness writes are not allowed for your role' });
    }
    expect(await h.counts()).toEqual(before);
  });

  it('answers a correction or deletion of a result outside the scope exactly like a missing one, before any version check', async () => {
    const other = await h.as(teacher90).record({ ...teacherInput, userId: 304, schoolId: 90 });
    const id = other.result.dataId;
    // A dataId on the same shard that was never allocated.
    const missing = id + 100 * 1_000_000;
    const before = await h.counts();
    const snapshot = await row(id);
    const asMissing = async (p: Promise<unknown>, missingCall: Promise<unknown>) => {
      const got = await errorOf(p);
      const want = await errorOf(missingCall);
      expect(got).toEqual({ ...want, message: want.message.replace(String(missing), String(id)), details: { id: String(id) } });
      expect(got).toEqual({ code: 'NOT_FOUND', message: `fitness result ${id} does not exist`, details: { id: String(id) } });
    };
    const t = h.as(teacher77);
    for (const expectedVersion of [1, 7]) {
      await asMissing(
        t.correct({ dataId: id, expectedVersion, result: '2.31', unit: 'm' }),
        t.correct({ dataId: missing, expectedVersion, result: '2.31', unit: 'm' }),
      );
      await asMissing(t.delete({ dataId: id, expectedVersion }), t.delete({ dataId: missing, expectedVersion }));
    }
    expect(await h.counts()).toEqual(before);
    expect(await row(id)).toEqual(snapshot);

    // A deleted result outside the scope does not reveal its tombstone either.
    await h.as(teacher90).delete({ dataId: id, expectedVersion: 1 });
    expect(await errorOf(t.correct({ dataId: id, expectedVersion: 2, result: '2.31', unit: 'm' }))).toEqual({
      code: 'NOT_FOUND',
      message: `fitness result ${id} does not exist`,
      details: { id: String(id) },
    });
  });

  it('moves a result between schools in scope, refuses a move out of it, and judges later writes by the latest school', async () => {
    const both = teacherOf('teacher-77-78', 77, 78);
    const rec = await h.as(both).record({ ...teacherInput, userId: 305 });
    const id = rec.result.dataId;
    const moved = await h.as(both).correct({ dataId: id, expectedVersion: 1, result: '2.40', unit: 'm', schoolId: 78 });
    expect(moved.result).toMatchObject({ schoolId: 78, version: 2, result: '2.400', changedBy: 'teacher-77-78' });
    expect(JSON.parse((await h.outboxOf(id))[1]!.message_value).data).toMatchObject({ schoolId: 78, version: 2 });

    const before = await h.counts();
    const snapshot = await row(id);
    expect(await errorOf(h.as(both).correct({ dataId: id, expectedVersion: 2, result: '2.40', unit: 'm', schoolId: 90 }))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'a result of school 90 is outside your scope',
    });
    expect(await h.counts()).toEqual(before);
    expect(await row(id)).toEqual(snapshot);

    // Now at school 78: the teacher of 77 alone no longer sees it.
    expect(await errorOf(h.as(teacher77).delete({ dataId: id, expectedVersion: 2 }))).toMatchObject({ code: 'NOT_FOUND' });
    // An operator may move it anywhere.
    const op = await h.as(TEST_OPERATOR).correct({ dataId: id, expectedVersion: 2, result: '2.40', unit: 'm', schoolId: 90 });
    expect(op.result).toMatchObject({ schoolId: 90, version: 3, changedBy: 'test-operator' });
  });
});
