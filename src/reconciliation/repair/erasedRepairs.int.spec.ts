// Repairs never bring an erased aggregate back: its discrepancy (recorded before the erasure reached the
// ledger) is resolved ERASED, nothing is read from the source, nothing is sent to Kafka and no repair row
// names it; a discrepancy of another aggregate in the same call is still repaired as usual (refused
// here: an UNEXPECTED_ROW is investigated, never changed automatically). A run that left an erased
// aggregate out settles its open discrepancy as ERASED, not NOT_FOUND_AGAIN. Real PostgreSQL ledger.
import { Registry } from 'prom-client';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import type { ErasedAggregates } from '../../domains/contract/erasure';
import { fixedClock } from '../../shared/clock';
import { reconciliationMetrics } from '../metrics';
import { repairDiscrepancies } from './repairDiscrepancies';
import { tokenBucket } from './rateLimiter';
import type { RepairDeps } from './repairDeps';
import { campaignScope } from '../../domains/fitness/reconciliation/campaignScope';
import { countsOnlyResult } from '../compareScope';
import { insertRun } from '../ledger/sql/insertRun';
import { recordRunResult } from '../ledger/sql/recordRunResult';
import { scopeKey } from '../scope';

jest.setTimeout(60000);

const at = new Date('2026-11-01T00:00:00Z');
const common = {
  domain: 'fitness',
  scope_key: 'campaign:31',
  scope: JSON.stringify({ kind: 'campaign', domain: 'fitness', detectId: 31 }),
};

describe('repairs of erased aggregates', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => env?.cleanup());

  it('resolves them ERASED and sends nothing', async () => {
    const pg = env.resources.pg;
    const disc = (aggregate_id: string, kind: string) => ({
      ...common,
      aggregate_id,
      kind,
      status: 'OPEN',
      first_seen_at: at,
      last_seen_at: at,
      first_run_id: 1,
      last_run_id: 1,
    });
    const ids = (
      (await pg('reconciliation_discrepancies')
        .insert([disc('900001', 'MISSING'), disc('900002', 'DELETION_NOT_APPLIED'), disc('900003', 'UNEXPECTED_ROW')])
        .returning('id')) as { id: string }[]
    ).map((r) => Number(r.id));
    const sent: unknown[] = [];
    const sourceRead: string[][] = [];
    const erased: ErasedAggregates = { erasedAmong: async (_d, xs) => new Set(xs.filter((x) => x !== '900003')) };
    const clock = fixedClock(at);
    const deps = {
      ledger: pg,
      sources: {
        fitness: {
          events: async (_s: unknown, aggregateIds: string[]) => {
            sourceRead.push(aggregateIds);
            return [];
          },
        },
      },
      sink: { send: async (e: unknown[]) => void sent.push(...e), close: async () => undefined },
      limiter: tokenBucket({ perSecond: 100, clock }),
      clock,
      metrics: reconciliationMetrics(new Registry()),
      rebuild: async () => {
        throw new Error('no rebuild expected');
      },
      erased,
    } as unknown as RepairDeps;

    const repairs = await repairDiscrepancies(deps, ids, 'test');
    expect(sent).toEqual([]);
    expect(sourceRead).toEqual([]);
    expect(repairs.map((r) => [r.aggregateId, r.action, r.outcome])).toEqual([['900003', 'INVESTIGATE', 'REFUSED']]);
    const rows = (await pg('reconciliation_discrepancies').orderBy('id').select('aggregate_id', 'status', 'resolution')) as Record<
      string,
      unknown
    >[];
    expect(rows).toEqual([
      { aggregate_id: '900001', status: 'RESOLVED', resolution: 'ERASED' },
      { aggregate_id: '900002', status: 'RESOLVED', resolution: 'ERASED' },
      { aggregate_id: '900003', status: 'OPEN', resolution: null },
    ]);
    expect(await pg('reconciliation_repairs').whereIn('aggregate_id', ['900001', '900002']).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('a run that left an erased aggregate out settles its open discrepancy as ERASED', async () => {
    const pg = env.resources.pg;
    const scope = campaignScope(32);
    const runId = await insertRun(pg, scope, 'IDS', 'OPERATOR', 'test', at);
    const base = { domain: 'fitness', scope_key: scopeKey(scope), scope: JSON.stringify({}), kind: 'MISSING', status: 'OPEN' };
    const times = { first_seen_at: at, last_seen_at: at, first_run_id: runId, last_run_id: runId };
    await pg('reconciliation_discrepancies').insert([
      { ...base, ...times, aggregate_id: '910001' },
      { ...base, ...times, aggregate_id: '910002' },
    ]);
    const result = countsOnlyResult('CLEAN', 1, 'every aggregate compared', { levelReached: 'IDS', erased: ['910001'] });
    await recordRunResult(pg, runId, scope, result, at, 5);
    const rows = await pg('reconciliation_discrepancies')
      .whereIn('aggregate_id', ['910001', '910002'])
      .orderBy('aggregate_id')
      .select('status', 'resolution');
    expect(rows).toEqual([
      { status: 'RESOLVED', resolution: 'ERASED' },
      { status: 'RESOLVED', resolution: 'NOT_FOUND_AGAIN' },
    ]);
  });
});
