// The reconciler role's schedule on its own timer (short interval and rotation period through the
// settings), in two processes over the same stores: only the process holding the lease reconciles,
// both the recently completed campaign (SCHEDULE) and the old ones in rotation (ROTATION); when that
// process has stopped and its lease has run out, the other takes the schedule over.
import { startTidemark, type Tidemark } from '../../app/start';
import { waitFor } from '../../shared/lifecycle';
import { fitnessStates, seedProjection, seedSource, FAST_SCHEDULE_SETTINGS } from '../../../test/support/reconciliationSeed';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { SCHEDULER_LEASE } from './scheduledReconciler';

jest.setTimeout(120000);

describe('the schedule in two reconciler processes', () => {
  let env: TestEnv;
  const apps = new Map<string, Tidemark>();
  const hourAgo = new Date(Date.now() - 3600_000);
  const longAgo = new Date(Date.now() - 10 * 24 * 3600_000);

  beforeAll(async () => {
    env = await createTestEnv(FAST_SCHEDULE_SETTINGS);
    const states = [
      ...fitnessStates({ detectId: 32001, count: 6, firstSequence: 1, updatedAt: longAgo }, 2),
      ...fitnessStates({ detectId: 32002, count: 4, firstSequence: 50, updatedAt: longAgo }, 2),
      ...fitnessStates({ detectId: 32003, count: 4, firstSequence: 100, updatedAt: hourAgo }, 2),
    ];
    await seedSource(env.resources, states);
    await seedProjection(env.resources, states);
  });
  afterAll(async () => {
    for (const app of apps.values()) await app.stop();
    await env?.cleanup();
  });

  const start = async (instanceId: string) =>
    apps.set(instanceId, await startTidemark({ ...env.settings, instanceId, roles: ['reconciler'] }, { migrate: false }));
  const runs = async () =>
    (await env.resources.pg('reconciliation_runs').orderBy('id').select('scope_key', 'trigger', 'outcome', 'requested_by')) as {
      scope_key: string;
      trigger: string;
      outcome: string | null;
      requested_by: string;
    }[];
  const leaseOwner = async () =>
    (await env.resources.pg('reconciliation_leases').where({ name: SCHEDULER_LEASE }).first())?.owner as string;

  it('reconciles on its own timer in the process holding the lease only, and moves to the other when that one stops', async () => {
    await start('sched-a');
    await start('sched-b');
    await waitFor(
      async () => {
        const r = (await runs()).filter((x) => x.outcome === 'CLEAN');
        return r.some((x) => x.trigger === 'SCHEDULE') && r.filter((x) => x.trigger === 'ROTATION').length >= 4;
      },
      { timeoutMs: 60000, intervalMs: 200, what: 'the schedule and two rounds of rotation' },
    );
    const holder = await leaseOwner();
    const other = holder === 'sched-a' ? 'sched-b' : 'sched-a';
    const first = await runs();
    expect(first.find((x) => x.trigger === 'SCHEDULE')).toMatchObject({ scope_key: 'fitness:detect=32003', outcome: 'CLEAN' });
    // Every run, of both kinds, is the lease holder's: the other process never ran one.
    expect(new Set(first.map((x) => x.requested_by))).toEqual(new Set([`scheduler:${holder}`]));
    expect(
      first
        .filter((x) => x.trigger === 'ROTATION' && x.outcome)
        .map((x) => x.scope_key)
        .slice(0, 2),
    ).toEqual(['fitness:detect=32001', 'fitness:detect=32002']);

    // The holder stops; its lease (the interval plus five minutes) is moved to the past instead of waited for.
    await apps.get(holder)!.stop();
    apps.delete(holder);
    const before = first.length;
    await env.resources
      .pg('reconciliation_leases')
      .where({ name: SCHEDULER_LEASE })
      .update({ expires_at: env.resources.pg.raw("now() - interval '1 second'") });
    await waitFor(async () => (await runs()).slice(before).some((x) => x.requested_by === `scheduler:${other}` && x.outcome === 'CLEAN'), {
      timeoutMs: 60000,
      intervalMs: 200,
      what: 'the other process taking the schedule over',
    });
    expect(await leaseOwner()).toBe(other);
    const later = (await runs()).slice(before);
    expect(later.every((x) => x.requested_by === `scheduler:${other}`)).toBe(true);
  });
});
