// The read-side wait over a counting fake store: one check when a read starts, none while it waits
// (notices wake it), one more only on timeout; the per-gateway cap refuses with OVERLOADED.
import { randomBytes } from 'node:crypto';
import type { StateChange } from '../../publication/stateChanges/stateChange';
import type { ReadModelStore } from '../read/readModelStore';
import { createAppliedVersions } from './appliedVersions';
import { consistencyTokenCodec } from './consistencyToken';
import { createConsistencyService } from './consistentReads';

const writer = { subject: 'teacher-1', roles: ['teacher' as const], schoolIds: [1] };

function setup(projected: Map<string, number>, maxWaiting = 5000) {
  const queries: string[] = [];
  const store: ReadModelStore = {
    select: async <T>(name: string, sql: string) => {
      queries.push(name);
      const ids = [...sql.matchAll(/`?data_id`? IN \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((x) => x.trim()));
      return ids.filter((id) => projected.has(id)).map((id) => ({ d: 'fitness', id, v: projected.get(id)! })) as T[];
    },
  };
  const applied = createAppliedVersions();
  const tokens = consistencyTokenCodec(randomBytes(32));
  const service = createConsistencyService({ tokens, applied, store, database: 'db', defaultWaitMs: 2000, maxWaitMs: 10000, maxWaiting });
  const token = (id: number, version: number) => service.tokenFor(writer, [{ domain: 'fitness', aggregateId: String(id), version }]);
  const applyNotice = (id: number, version: number): StateChange => ({
    eventId: `e${id}`,
    domain: 'fitness',
    aggregateId: String(id),
    version,
    from: null,
    to: 'PROJECTION_APPLIED',
    attempt: 0,
    at: new Date(),
  });
  return { queries, applied, service, token, applyNotice };
}

describe('consistent reads', () => {
  it('answers at once when the projection already holds the version (one query)', async () => {
    const t = setup(new Map([['7', 2]]));
    const v = await t.service.awaitWrites(writer, [t.token(7, 2)], 5000);
    expect(v).toMatchObject({ visible: true, missing: [], blocked: null });
    expect(t.queries).toEqual(['consistencyVersions']);
  });

  it('1,000 waiting reads share their first checks and cost no query while they wait; notices answer them', async () => {
    const t = setup(new Map());
    const reads = Array.from({ length: 1000 }, (_, i) => t.service.awaitWrites(writer, [t.token(100 + i, 1)], 10000));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    const started = t.queries.length;
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThanOrEqual(2); // 1,000 ids in batches of at most 500
    expect(t.service.waiting()).toBe(1000);
    t.applied.observe(Array.from({ length: 1000 }, (_, i) => t.applyNotice(100 + i, 1)));
    const out = await Promise.all(reads);
    expect(out.every((v) => v.visible)).toBe(true);
    expect(t.queries).toHaveLength(started);
    expect(t.service.waiting()).toBe(0);
  });

  it('on timeout checks once more and names what is missing', async () => {
    const t = setup(new Map([['8', 1]]));
    const v = await t.service.awaitWrites(writer, [t.token(8, 2)], 10);
    expect(v).toMatchObject({
      visible: false,
      blocked: null,
      missing: [{ domain: 'fitness', aggregateId: '8', version: 2, reason: 'NOT_YET_VISIBLE' }],
    });
    expect(t.queries).toEqual(['consistencyVersions', 'consistencyVersions']);
  });

  it('validates maxWaitMs and the tokens, and refuses waits beyond the cap with OVERLOADED (retriable)', async () => {
    const t = setup(new Map(), 1);
    await expect(t.service.awaitWrites(writer, [t.token(1, 1)], 10001)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.service.awaitWrites(writer, [t.token(1, 1)], -1)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.service.awaitWrites({ ...writer, subject: 'other' }, [t.token(1, 1)], 10)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const first = t.service.awaitWrites(writer, [t.token(1, 1)], 50);
    await expect(t.service.awaitWrites(writer, [t.token(2, 1)], 50)).rejects.toMatchObject({ code: 'OVERLOADED', retriable: true });
    await first;
    expect(t.service.waiting()).toBe(0);
  });

  it('writeVisible: resolves once when visible; cancel ends the wait with null', async () => {
    const t = setup(new Map());
    const h = t.service.watchWrite(writer, t.token(9, 1));
    const c = t.service.watchWrite(writer, t.token(10, 1));
    await new Promise((r) => setImmediate(r));
    t.applied.observe([t.applyNotice(9, 1)]);
    expect(await h.outcome).toMatchObject({ visible: true });
    c.cancel();
    expect(await c.outcome).toBeNull();
    expect(t.service.waiting()).toBe(0);
    expect(() => t.service.watchWrite({ ...writer, subject: 'x' }, t.token(9, 1))).toThrow('invalid consistency token');
  });
});
