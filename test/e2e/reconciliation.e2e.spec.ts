// Reconciliation and repair over GraphQL on the real stack (gateway + relay + projector). Results are
// written through the fitness write path and projected by the projector; each discrepancy kind is
// then injected straight into ClickHouse (a dropped row, an old version left behind, a deletion that
// never arrived, a wrong schoolId with the same version, a row with no source). The operator's
// reconciliation classifies each, a scope that is merely catching up reports nothing, each repair
// fixes its case and is verified, and a second reconciliation finds nothing.
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { FITNESS_RESULTS, type FitnessRow } from '../../src/domains/fitness/projection/fitnessResultsTable';
import { rowLine } from '../../src/projections/sql/insertRows';
import { insertJsonEachRow } from '../../src/projections/sql/insertJsonEachRow';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { waitFor } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  DeleteFitnessResultDocument,
  DiscrepanciesDocument,
  PlaceOrderDocument,
  ProjectionRebuildsDocument,
  PublicationHealthDocument,
  ReconcileDocument,
  RebuildProjectionDocument,
  RecordFitnessResultDocument,
  RemoveUnexpectedRowsDocument,
  RepairDocument,
  RepairsDocument,
  type ReconcileMutation,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

const fitnessLine = (r: FitnessRow) => rowLine(FITNESS_RESULTS, r);

jest.setTimeout(120000);

describe('reconciliation and repair over GraphQL', () => {
  let env: TestEnv;
  let app: Tidemark;
  let projector: Tidemark | undefined;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({
      relayPollIntervalMs: 50,
      projectorFlushIntervalMs: 50,
      reconcileGraceMs: 500,
      reconcileMaxAttempts: 3,
      reconcileRetryBaseMs: 200,
      reconcileRetryMaxMs: 500,
      reconcileCatchUpWaitMs: 1500,
      reconcileDirectCompareMax: 4,
      reconcileBucketCount: 16,
      publicationReconcilerGraceMs: 0,
      publicationReconcilerIntervalMs: 100,
      repairWaitMs: 30000,
      rebuildWaitMs: 45000,
    });
    // No projector yet: the first test shows a scope that is merely catching up.
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await projector?.stop();
    await app?.stop();
    await env?.cleanup();
  });

  const ch = () => app.resources.clickhouse;
  const db = () => env.settings.clickhouseDatabase;
  const campaign = { detectId: 20001 };
  const scope = { campaign };

  async function record(userId: number, result: string): Promise<string> {
    const r = await execute(
      url,
      RecordFitnessResultDocument,
      { input: { detectId: campaign.detectId, userId, projectId: 3, schoolId: 77, grade: 5, result, unit: 'm' } },
      client,
    );
    expect(r.errors).toBeUndefined();
    return r.data!.recordFitnessResult.result.dataId;
  }

  async function projectedVersion(dataId: string): Promise<number> {
    const rs = await ch().query({
      query: `SELECT max(version) AS v FROM ${ident(db())}.fitness_results WHERE data_id = ${uint(dataId)}`,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ v: string | number }>();
    return Number(row?.v ?? 0);
  }

  async function latestRow(dataId: string): Promise<FitnessRow> {
    const rs = await ch().query({
      query: `SELECT * FROM ${ident(db())}.fitness_results WHERE data_id = ${uint(dataId)} ORDER BY version DESC LIMIT 1`,
      format: 'JSONEachRow',
    });
    const [r] = await rs.json<Record<string, string | number>>();
    return {
      dataId: Number(r!.data_id),
      detectId: Number(r!.detect_id),
      userId: Number(r!.user_id),
      projectId: Number(r!.project_id),
      schoolId: Number(r!.school_id),
      grade: Number(r!.grade),
      result: String(r!.result),
      unit: String(r!.unit),
      version: Number(r!.version),
      isDeleted: Number(r!.is_deleted) === 1,
      createdAtMs: Number(r!.created_at_ms),
      sourceCommitMs: Number(r!.source_commit_ms),
      ingestedAtMs: Date.now(),
      eventId: String(r!.event_id),
      shard: Number(r!.shard),
      measuredAtMs: Number(r!.measured_at_ms),
      changedBy: String(r!.changed_by),
      kafkaPartition: Number(r!.kafka_partition),
      kafkaOffset: String(r!.kafka_offset),
    };
  }

  async function reconcile(
    level: 'COUNTS' | 'IDS' | 'CONTENT',
    s: Record<string, unknown> = scope,
    escalate = true,
  ): Promise<ReconcileMutation['reconcile']> {
    const r = await execute(url, ReconcileDocument, { scope: s, level, escalate }, operator);
    expect(r.errors).toBeUndefined();
    return r.data!.reconcile;
  }

  const ids: Record<string, string> = {};

  it('reports a scope that is merely catching up as CATCHING_UP and stores nothing', async () => {
    ids.missing = await record(1, '2.31');
    ids.stale = await record(2, '2.10');
    ids.deleted = await record(3, '1.95');
    ids.content = await record(4, '2.45');
    ids.clean = await record(5, '2.05');
    const cor = await execute(
      url,
      CorrectFitnessResultDocument,
      { dataId: ids.stale, expectedVersion: 1, result: '2.2', unit: 'm' },
      client,
    );
    expect(cor.errors).toBeUndefined();
    const del = await execute(url, DeleteFitnessResultDocument, { dataId: ids.deleted, expectedVersion: 1 }, client);
    expect(del.errors).toBeUndefined();
    // Every write on Kafka first: an aggregate whose publication is still pending is excluded as in
    // flight (a live scope stays reconcilable), so only a projector behind the topic is CATCHING_UP.
    await waitFor(
      async () => {
        const h = await execute(url, PublicationHealthDocument, { domain: 'fitness' }, operator);
        return h.data!.publicationHealth.every((d) => d.stores.every((st) => st.pending === 0 && st.failed === 0));
      },
      { what: 'every fitness write published' },
    );

    const r = await reconcile('CONTENT');
    expect(r.run.outcome).toBe('CATCHING_UP');
    expect(r.discrepancies).toEqual([]);
    const stored = await execute(url, DiscrepanciesDocument, { filter: { scopeKey: r.run.scopeKey } }, operator);
    expect(stored.data!.discrepancies).toEqual([]);
  });

  it('finds nothing once the projection has caught up, at every level', async () => {
    projector = await startTidemark({ ...env.settings, roles: ['projector'] }, { migrate: false });
    await waitFor(
      async () =>
        (await projectedVersion(ids.deleted!)) === 2 &&
        (await projectedVersion(ids.stale!)) === 2 &&
        (await projectedVersion(ids.clean!)) === 1,
      { timeoutMs: 30000, what: 'projection' },
    );
    for (const level of ['COUNTS', 'IDS', 'CONTENT'] as const) {
      const r = await reconcile(level);
      expect({ level, outcome: r.run.outcome }).toEqual({ level, outcome: 'CLEAN' });
      expect(r.discrepancies).toEqual([]);
    }
    const content = await reconcile('CONTENT');
    // 5 results > RECONCILE_DIRECT_COMPARE_MAX (4): compared by bucket digests.
    expect(content.run.bucketsCompared).toBeGreaterThan(0);
    expect(content.run.bucketsMismatched).toBe(0);
    expect(content.run.counts).toEqual([{ segment: '3', source: 4, target: 4 }]);
  });

  it('classifies each injected kind of discrepancy, each at the level that can see it', async () => {
    // A dropped row; an old version left behind; a deletion that never arrived.
    // Version 1 is written back explicitly: current ClickHouse merges a replaced version away within
    // seconds, so deleting version 2 alone may leave nothing (18.16 merges much later).
    const staleV2 = await latestRow(ids.stale!);
    const deletedV2 = await latestRow(ids.deleted!);
    await deleteRows(
      ch(),
      clickhouseLayout(env.settings),
      db(),
      'fitness_results',
      `data_id IN (${uint(ids.missing!)}, ${uint(ids.stale!)}, ${uint(ids.deleted!)})`,
    );
    const v1 = (r: FitnessRow, result: string) =>
      fitnessLine({
        ...r,
        version: 1,
        isDeleted: false,
        result,
        eventId: `fitness-result-${r.dataId}-v1`,
        sourceCommitMs: r.sourceCommitMs - 1000,
      });
    await insertJsonEachRow(ch(), db(), 'fitness_results', [v1(staleV2, '2.100'), v1(deletedV2, '1.950')]);
    // A mapping defect: the wrong school with the same dataId and version.
    const good = await latestRow(ids.content!);
    await insertJsonEachRow(ch(), db(), 'fitness_results', [fitnessLine({ ...good, schoolId: good.schoolId + 1000 })]);
    // A row with no source.
    ids.unexpected = String(99999999 * 100 + 1);
    await insertJsonEachRow(ch(), db(), 'fitness_results', [
      fitnessLine({
        ...good,
        dataId: Number(ids.unexpected),
        eventId: `fitness-result-${ids.unexpected}-v1`,
        version: 1,
        sourceCommitMs: good.sourceCommitMs - 60000,
      }),
    ]);

    const counts = await reconcile('COUNTS', scope, false);
    expect(counts.run.outcome).toBe('DISCREPANCIES');
    expect(counts.run.counts).toEqual([{ segment: '3', source: 4, target: 5 }]);
    expect(counts.discrepancies).toEqual([]);

    const byIds = await reconcile('IDS');
    expect(Object.fromEntries(byIds.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual({
      [ids.missing!]: 'MISSING',
      [ids.stale!]: 'STALE_VERSION',
      [ids.deleted!]: 'DELETION_NOT_APPLIED',
      [ids.unexpected]: 'UNEXPECTED_ROW',
    });

    const content = await reconcile('CONTENT');
    expect(content.run.outcome).toBe('DISCREPANCIES');
    expect(content.run.bucketsMismatched).toBeGreaterThan(0);
    const byId = new Map(content.discrepancies.map((d) => [d.aggregateId, d]));
    expect(byId.size).toBe(5);
    expect(byId.get(ids.missing!)).toMatchObject({ kind: 'MISSING', sourceVersion: 1, targetVersion: null, status: 'OPEN' });
    expect(byId.get(ids.stale!)).toMatchObject({ kind: 'STALE_VERSION', sourceVersion: 2, targetVersion: 1 });
    expect(byId.get(ids.deleted!)).toMatchObject({ kind: 'DELETION_NOT_APPLIED', sourceVersion: 2, targetVersion: 1 });
    expect(byId.get(ids.content!)).toMatchObject({
      kind: 'CONTENT_MISMATCH',
      sourceVersion: 1,
      targetVersion: 1,
      differingFields: ['schoolId'],
    });
    expect(byId.get(ids.content!)!.sourceDigest).not.toBe(byId.get(ids.content!)!.targetDigest);
    expect(byId.get(ids.unexpected)).toMatchObject({ kind: 'UNEXPECTED_ROW', sourceVersion: null, targetVersion: 1 });
    // Seen twice (IDS then CONTENT): one stored row per aggregate, not two.
    const open = await execute(url, DiscrepanciesDocument, { filter: { statuses: ['OPEN'] }, first: 50 }, operator);
    expect(open.data!.discrepancies).toHaveLength(5);
    ids.content_d = byId.get(ids.content!)!.id;
    for (const k of ['missing', 'stale', 'deleted', 'unexpected'] as const) ids[`${k}_d`] = byId.get(ids[k]!)!.id;
  });

  it('refuses operator operations to a client token', async () => {
    const r = await execute(url, ReconcileDocument, { scope, level: 'COUNTS' }, client);
    expect(r.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });

  it('replays missing and stale versions with their existing version, delivers the tombstone, and verifies', async () => {
    const r = await execute(url, RepairDocument, { ids: [ids.missing_d!, ids.stale_d!, ids.deleted_d!, ids.unexpected_d!] }, operator);
    expect(r.errors).toBeUndefined();
    const byAgg = new Map(r.data!.repair.map((x) => [x.aggregateId, x]));
    expect(byAgg.get(ids.missing!)).toMatchObject({
      action: 'REPLAY',
      sourceVersion: 1,
      eventId: `fitness-result-${ids.missing}-v1`,
      outcome: 'SENT',
      verification: 'PASSED',
    });
    expect(byAgg.get(ids.stale!)).toMatchObject({
      action: 'REPLAY',
      sourceVersion: 2,
      eventId: `fitness-result-${ids.stale}-v2`,
      outcome: 'SENT',
      verification: 'PASSED',
    });
    expect(byAgg.get(ids.deleted!)).toMatchObject({
      action: 'TOMBSTONE',
      sourceVersion: 2,
      eventId: `fitness-result-${ids.deleted}-v2`,
      outcome: 'SENT',
      verification: 'PASSED',
    });
    // An unexpected row is never changed automatically.
    expect(byAgg.get(ids.unexpected)).toMatchObject({ action: 'INVESTIGATE', outcome: 'REFUSED', verification: 'NOT_APPLICABLE' });
    expect(await projectedVersion(ids.unexpected!)).toBe(1);
  });

  it('removes an unexpected row only by the explicit, audited operator action, and verifies', async () => {
    const r = await execute(
      url,
      RemoveUnexpectedRowsDocument,
      { ids: [ids.unexpected_d!], reason: 'no source row: injected by the test' },
      operator,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.removeUnexpectedRows).toEqual([
      expect.objectContaining({ action: 'REMOVE_UNEXPECTED', outcome: 'COMPLETED', verification: 'PASSED', requestedBy: 'test-operator' }),
    ]);
    expect(await projectedVersion(ids.unexpected!)).toBe(0);
  });

  it('rebuilds the scope for a same-version content error, validates, swaps, verifies, and keeps the bad content out', async () => {
    const r = await execute(url, RepairDocument, { ids: [ids.content_d!] }, operator);
    expect(r.errors).toBeUndefined();
    expect(r.data!.repair).toEqual([expect.objectContaining({ action: 'REBUILD', outcome: 'SENT', verification: 'PASSED' })]);
    const rebuilds = await execute(url, ProjectionRebuildsDocument, { first: 5 }, operator);
    // The authoritative scope (5 results incl. one tombstone) was loaded; the one bad row quarantined.
    expect(rebuilds.data!.projectionRebuilds).toEqual([expect.objectContaining({ status: 'VERIFIED', phase: 'DONE', quarantined: 1 })]);
    expect(await projectedVersion(ids.content!)).toBe(1);

    const again = await reconcile('CONTENT');
    expect(again.run.outcome).toBe('CLEAN');
    expect(again.discrepancies).toEqual([]);
    const unresolved = await execute(url, DiscrepanciesDocument, { filter: { statuses: ['OPEN', 'REPAIRING'] } }, operator);
    expect(unresolved.data!.discrepancies).toEqual([]);
    const all = await execute(url, DiscrepanciesDocument, { filter: { scopeKey: again.run.scopeKey } }, operator);
    expect(Object.fromEntries(all.data!.discrepancies.map((d) => [d.aggregateId, d.resolution]))).toEqual({
      [ids.missing!]: 'REPAIRED',
      [ids.stale!]: 'REPAIRED',
      [ids.deleted!]: 'REPAIRED',
      [ids.content!]: 'REBUILT',
      [ids.unexpected!]: 'REMOVED_BY_OPERATOR',
    });

    // The defective path re-delivers the bad version: the next reconciliation sweeps it out (audited).
    const good = await latestRow(ids.content!);
    await insertJsonEachRow(ch(), db(), 'fitness_results', [fitnessLine({ ...good, schoolId: good.schoolId + 1000 })]);
    const swept = await reconcile('CONTENT');
    expect(swept.run.outcome).toBe('CLEAN');
    const sweeps = await execute(url, RepairsDocument, { filter: { actions: ['QUARANTINE_SWEEP'] } }, operator);
    expect(sweeps.data!.repairs).toEqual([expect.objectContaining({ action: 'QUARANTINE_SWEEP', outcome: 'COMPLETED' })]);
  });

  it('reconciles an order window and replays a missing order with its existing eventId', async () => {
    const from = new Date(Date.now() - 60000);
    const placed: string[] = [];
    for (const key of ['rec-o-1', 'rec-o-2']) {
      const r = await execute(
        url,
        PlaceOrderDocument,
        { input: { customerId: 'c-1', currency: 'EUR', idempotencyKey: key, items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }] } },
        client,
      );
      expect(r.errors).toBeUndefined();
      placed.push(r.data!.placeOrder.order.orderId);
    }
    const window = { orderWindow: { from: from.toISOString(), to: new Date(Date.now() + 60000).toISOString() } };
    const projected = async () => {
      const rs = await ch().query({ query: `SELECT count() AS n FROM ${ident(db())}.orders`, format: 'JSONEachRow' });
      return Number((await rs.json<{ n: string }>())[0]!.n);
    };
    await waitFor(async () => (await projected()) === 2, { timeoutMs: 30000, what: 'orders projected' });
    await waitFor(async () => (await reconcile('CONTENT', window)).run.outcome === 'CLEAN', {
      timeoutMs: 20000,
      what: 'clean order window',
    });

    await deleteRows(ch(), clickhouseLayout(env.settings), db(), 'orders', `order_id = '${placed[0]}'`);
    // The order may still be younger than the orders' grace period: until then a run counts it as in
    // flight (excluded), not as missing.
    let found = await reconcile('CONTENT', window);
    await waitFor(async () => (found = await reconcile('CONTENT', window)).discrepancies.length > 0, {
      timeoutMs: 20000,
      what: 'the missing order reported',
    });
    expect(found.discrepancies).toEqual([expect.objectContaining({ aggregateId: placed[0], kind: 'MISSING', sourceVersion: 1 })]);
    const rep = await execute(url, RepairDocument, { ids: [found.discrepancies[0]!.id] }, operator);
    expect(rep.data!.repair).toEqual([
      expect.objectContaining({ action: 'REPLAY', eventId: `order-placed:${placed[0]}:v1`, verification: 'PASSED' }),
    ]);
    expect((await reconcile('CONTENT', window)).run.outcome).toBe('CLEAN');

    // An operator's rebuild of the window: loaded from PostgreSQL, validated, swapped and verified.
    const rb = await execute(
      url,
      RebuildProjectionDocument,
      { domain: 'orders', scope: window, reason: 'e2e: rebuild an order window' },
      operator,
    );
    expect(rb.errors).toBeUndefined();
    expect(rb.data!.rebuildProjection).toMatchObject({
      status: 'VERIFIED',
      phase: 'DONE',
      sourceRows: 2,
      quarantined: 0,
      retiredTable: null,
    });
    const audit = await execute(url, RepairsDocument, { filter: { domain: 'orders', actions: ['REBUILD'] } }, operator);
    expect(audit.data!.repairs).toEqual([
      expect.objectContaining({
        action: 'REBUILD',
        rebuildId: rb.data!.rebuildProjection.id,
        verification: 'PASSED',
        requestedBy: 'test-operator',
      }),
    ]);
    expect((await reconcile('CONTENT', window)).run.outcome).toBe('CLEAN');
  });
});
