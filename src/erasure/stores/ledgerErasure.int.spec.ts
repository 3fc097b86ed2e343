// The reconciliation ledger's erasure on the real PostgreSQL: every mention of the erased aggregates
// (exact columns, free text, JSON values) becomes its marker, their quarantine and digests go, their
// open discrepancies are resolved ERASED; other aggregates (even with ids that contain the erased one)
// are untouched; a second erase changes nothing; verify finds them before and 0 after.
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { pseudonymOf, type ErasureJob } from '../../domains/contract/erasure';
import { fixedClock } from '../../shared/clock';
import { erasedMarker } from '../../shared/keyedHash';
import { erasedAggregateMarker, ledgerErasure } from './ledgerErasure';

jest.setTimeout(60000);

const key = Buffer.alloc(32, 7);
const at = new Date('2026-11-01T00:00:00Z');
const scope = { domain: 'fitness', detectId: 31 };

describe('ledgerErasure', () => {
  let env: TestEnv;
  const job: ErasureJob = {
    erasureId: 'e-1',
    kind: 'student',
    mode: 'delete',
    subjectId: '4242',
    domain: 'fitness',
    aggregateIds: ['900001', '900002'],
    subjectHash: 'h',
    startedAt: at,
  };
  const store = () => ledgerErasure({ pg: env.resources.pg, key, clock: fixedClock(at) });
  const m1 = erasedAggregateMarker(key, 'fitness', '900001');
  const m2 = erasedAggregateMarker(key, 'fitness', '900002');

  beforeAll(async () => {
    env = await createTestEnv();
    const pg = env.resources.pg;
    const common = { domain: 'fitness', scope_key: 'fitness:31', scope: JSON.stringify(scope) };
    const [run] = await pg('reconciliation_runs')
      .insert({
        ...common,
        level_requested: 'CONTENT',
        trigger: 'OPERATOR',
        requested_by: 'op',
        started_at: at,
        note: 'checked 900001 and 9000011',
        revision_before: JSON.stringify({ owner: '4242', ids: ['900002', '900003'], versionSum: 900001 }),
      })
      .returning('id');
    const runId = Number((run as { id: string }).id);
    const disc = (aggregate_id: string, status: string) => ({
      ...common,
      aggregate_id,
      kind: 'MISSING',
      status,
      source_digest: 'aaaa',
      target_digest: 'bbbb',
      first_seen_at: at,
      last_seen_at: at,
      first_run_id: runId,
      last_run_id: runId,
      ...(status === 'RESOLVED' ? { resolution: 'REPAIRED', resolved_at: at } : {}),
    });
    const ids = (await pg('reconciliation_discrepancies')
      .insert([disc('900001', 'OPEN'), disc('900002', 'RESOLVED'), disc('900003', 'OPEN')])
      .returning('id')) as { id: string }[];
    await pg('reconciliation_repairs').insert(
      [
        ['900001', ids[0]!.id],
        ['900003', ids[2]!.id],
      ].map(([agg, d]) => ({
        ...common,
        discrepancy_id: d,
        action: 'REPLAY',
        reason: 'discrepancy MISSING',
        aggregate_id: agg,
        event_id: `fitness-result-${agg}-v1`,
        requested_by: 'op',
        outcome: 'SENT',
        outcome_note: `sent fitness-result-${agg}-v1 (version 1) to the fitness topic`,
        verification: 'PASSED',
        created_at: at,
        updated_at: at,
      })),
    );
    const [rb] = await pg('projection_rebuilds')
      .insert({
        ...common,
        status: 'VERIFIED',
        phase: 'DONE',
        shadow_table: 's',
        requested_by: 'op',
        reason: 'operator: 900002 looked wrong, 9000021 too',
        validation: JSON.stringify({ outcome: 'CLEAN', sample: ['900001'] }),
        started_at: at,
        heartbeat_at: at,
      })
      .returning('id');
    const rebuildId = (rb as { id: string }).id;
    await pg('projection_quarantine').insert(
      ['900001', '900003'].map((a) => ({
        domain: 'fitness',
        aggregate_id: a,
        version: 1,
        digest: 'cccc',
        rebuild_id: rebuildId,
        created_at: at,
      })),
    );
    // The same id in another domain is another aggregate.
    await pg('reconciliation_discrepancies').insert({ ...disc('900001', 'OPEN'), domain: 'orders' });
  });
  afterAll(async () => env?.cleanup());

  it('finds the aggregates before, scrubs every trace, leaves the others, and is idempotent', async () => {
    const pg = env.resources.pg;
    const before = await store().verify(job);
    // Rows: the run, two discrepancies, one repair, the rebuild, one quarantine row.
    expect(before.found).toBe(6);
    expect(before.searched).toEqual(
      expect.arrayContaining(['reconciliation_discrepancies', 'reconciliation_repairs', 'projection_quarantine']),
    );

    const first = await store().erase(job);
    expect(first.done).toBe(true);
    expect(first.affected).toBeGreaterThan(0);
    const after = await store().verify(job);
    expect(after.found).toBe(0);
    expect(after.note).toBeUndefined();

    const discs = (await pg('reconciliation_discrepancies').orderBy('id').select()) as Record<string, unknown>[];
    expect(discs.map((d) => [d.domain, d.aggregate_id, d.status, d.resolution])).toEqual([
      ['fitness', m1, 'RESOLVED', 'ERASED'],
      ['fitness', m2, 'RESOLVED', 'REPAIRED'],
      ['fitness', '900003', 'OPEN', null],
      ['orders', '900001', 'OPEN', null],
    ]);
    expect(discs.slice(0, 2).map((d) => [d.source_digest, d.target_digest])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(discs[2]!.source_digest).toBe('aaaa');

    const repairs = (await pg('reconciliation_repairs').orderBy('id').select('aggregate_id', 'event_id', 'outcome_note')) as Record<
      string,
      string
    >[];
    expect(repairs[0]).toEqual({
      aggregate_id: m1,
      event_id: `fitness-result-${m1}-v1`,
      outcome_note: `sent fitness-result-${m1}-v1 (version 1) to the fitness topic`,
    });
    expect(repairs[1]!.aggregate_id).toBe('900003');

    const run = (await pg('reconciliation_runs').first('note', 'revision_before')) as { note: string; revision_before: unknown };
    expect(run.note).toBe(`checked ${m1} and 9000011`);
    expect(run.revision_before).toEqual({ owner: erasedMarker(key, 'student', '4242'), ids: [m2, '900003'], versionSum: 900001 });
    const rebuild = (await pg('projection_rebuilds').first('reason', 'validation')) as { reason: string; validation: unknown };
    expect(rebuild.reason).toBe(`operator: ${m2} looked wrong, 9000021 too`);
    expect(rebuild.validation).toEqual({ outcome: 'CLEAN', sample: [m1] });
    expect((await pg('projection_quarantine').select('aggregate_id')).map((r: { aggregate_id: string }) => r.aggregate_id)).toEqual([
      '900003',
    ]);

    const again = await store().erase(job);
    expect(again).toEqual({ affected: 0, done: true });
    expect((await store().verify(job)).found).toBe(0);
  });

  it("pseudonymises a customer: its id becomes the pseudonym in text and JSON, the orders' aggregates stay", async () => {
    const pg = env.resources.pg;
    const customer = 'cust-C.1';
    const cjob: ErasureJob = {
      ...job,
      kind: 'customer',
      mode: 'pseudonymise',
      subjectId: customer,
      domain: 'orders',
      aggregateIds: ['0b8e1f7a-0000-4000-8000-000000000001'],
      subjectHash: 'cd34'.repeat(16),
    };
    const pseudonym = pseudonymOf(cjob);
    const common = {
      domain: 'orders',
      scope_key: 'orders:c',
      requested_by: 'op',
      started_at: at,
      level_requested: 'CONTENT',
      trigger: 'OPERATOR',
    };
    await pg('reconciliation_runs').insert([
      { ...common, note: `customer ${customer} checked, cust-C.10 too`, scope: JSON.stringify({ domain: 'orders', customerId: customer }) },
      { ...common, note: 'nothing of hers', scope: JSON.stringify({ domain: 'orders', customerId: 'cust-C.10' }) },
      { ...common, domain: 'fitness', note: `fitness ${customer}`, scope: JSON.stringify({ domain: 'fitness' }) },
    ]);
    const before = await store().verify(cjob);
    expect(before).toMatchObject({ store: 'reconciliation-ledger', found: 1 });
    expect((await store().erase(cjob)).affected).toBe(1);
    expect((await store().verify(cjob)).found).toBe(0);
    const runs = (await pg('reconciliation_runs').where('scope_key', 'orders:c').orderBy('id').select('domain', 'note', 'scope')) as {
      domain: string;
      note: string;
      scope: unknown;
    }[];
    expect(runs.map((r) => [r.domain, r.note, r.scope])).toEqual([
      ['orders', `customer ${pseudonym} checked, cust-C.10 too`, { domain: 'orders', customerId: pseudonym }],
      ['orders', 'nothing of hers', { domain: 'orders', customerId: 'cust-C.10' }],
      ['fitness', `fitness ${customer}`, { domain: 'fitness' }],
    ]);
    // The orders' aggregates are not scrubbed: the orders discrepancy keeps its id.
    expect(await pg('reconciliation_discrepancies').where({ domain: 'orders', aggregate_id: '900001' }).first()).toBeDefined();
    expect(await store().erase(cjob)).toEqual({ affected: 0, done: true });
  });
});
