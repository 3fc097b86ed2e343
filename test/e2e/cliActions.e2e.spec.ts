// The operator commands of `npx tidemark` acting on real state, on a stack with a relay and a projector:
// a kafka-first dead letter replayed and then published, a parked outbox event replayed and then sent,
// a campaign's dropped projection row repaired and its row with no source removed, a scope rebuilt and
// verified with its data intact. Each command is also given bad arguments first: a clear error, an exit
// code other than 0, and the state it would have acted on unchanged. (--help and the read-only commands:
// cli.e2e.spec.ts.)
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { fitnessEvent } from '../../src/domains/fitness/events';
import { FITNESS_RESULTS, type FitnessRow } from '../../src/domains/fitness/projection/fitnessResultsTable';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { insertRows } from '../../src/projections/sql/insertRows';
import type { DomainEvent } from '../../src/publication/event';
import { publicationRowFor } from '../../src/publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../src/publication/kafkaFirst/upsertNotPublished';
import { appendOutboxEvents } from '../../src/publication/outbox/appendOutboxEvents';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { randomIds } from '../../src/shared/clock';
import { waitFor } from '../../src/shared/lifecycle';
import {
  DiscrepanciesDocument,
  ProjectionRebuildsDocument,
  ReconcileDocument,
  RecordFitnessResultDocument,
  RepairsDocument,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { sampleFitnessState } from '../support/outboxSeed';
import { projectedRows } from '../support/projectedRows';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, tokenFor } from '../support/tokens';

jest.setTimeout(300000);

const bin = join(__dirname, '..', '..', 'bin', 'tidemark.cjs');
const exec = promisify(execFile);
const CAMPAIGN = 43001;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with only the environment given (plus PATH/HOME); a busy machine takes a while to start tsx. */
async function tidemark(args: string[], env: Record<string, string>): Promise<Ran> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      timeout: 240000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('tidemark operator commands acting on real state', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let asOperator: Record<string, string>;
  let operator: Record<string, string>;
  const dataIds: string[] = [];

  beforeAll(async () => {
    env = await createTestEnv({
      relayPollIntervalMs: 50,
      projectorFlushIntervalMs: 50,
      kafkaFirstRelayPollIntervalMs: 100,
      reconcileGraceMs: 500,
      reconcileRetryBaseMs: 200,
      reconcileRetryMaxMs: 500,
      reconcileCatchUpWaitMs: 3000,
      repairWaitMs: 60000,
      rebuildWaitMs: 60000,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    operator = await authHeader(env.settings, 'operator');
    asOperator = { TIDEMARK_ENV: 'test', TIDEMARK_URL: url, TIDEMARK_TOKEN: await tokenFor(env.settings, 'operator') };
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const db = () => ident(env.settings.clickhouseDatabase);
  async function chCount(where: string): Promise<number> {
    const rs = await app.resources.clickhouse.query({
      query: `SELECT count(DISTINCT data_id) AS n FROM ${db()}.fitness_results WHERE ${where}`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  }
  /** The campaign's latest projected rows, as (dataId, version, result) lines. */
  async function campaignRows(): Promise<string[]> {
    const rs = await app.resources.clickhouse.query({
      query:
        `SELECT data_id, max(version) AS v, argMax(result, version) AS r FROM ${db()}.fitness_results ` +
        `WHERE detect_id = ${uint(CAMPAIGN)} GROUP BY data_id ORDER BY data_id`,
      format: 'JSONEachRow',
    });
    return (await rs.json<{ data_id: string; v: string; r: string }>()).map((x) => `${x.data_id} v${x.v} ${x.r}`);
  }

  it('replays a kafka-first dead letter, which the relay then publishes; a bad domain changes nothing', async () => {
    const orderId = randomIds.uuid();
    const event: DomainEvent = {
      eventId: `order-placed:${orderId}:v1`,
      domain: 'orders',
      type: 'OrderPlaced',
      aggregateId: orderId,
      version: 1,
      schemaVersion: 1,
      isDeleted: false,
      occurredAt: new Date(),
      shard: 0,
      data: {
        orderId,
        customerId: 'cust-cli',
        currency: 'EUR',
        items: [{ sku: 'SKU-1', quantity: 1, unitPrice: '5.0000' }],
        total: '5.0000',
        itemCount: 1,
        createdAt: new Date().toISOString(),
      },
    };
    const pg = env.resources.pg;
    // Stored and dead-lettered in one transaction: the running relay never sees it NOT_PUBLISHED.
    await pg.transaction(async (trx) => {
      await upsertNotPublished(trx, publicationRowFor(event, env.resources.topics, 'DIRECT_FALLBACK', { attempts: 3, result: 'timeout' }));
      await trx('event_publications')
        .where({ event_id: event.eventId })
        .update({ status: 'DEAD_LETTER', relay_attempts: 3, last_error_code: 'KafkaJSRequestTimeoutError' });
    });
    const row = async () =>
      (await pg('event_publications').where({ event_id: event.eventId }).first()) as { status: string; replay_count: number };

    const bad = await tidemark(['replay-dead-letters', '--domain', 'ordrs', '--event-id', event.eventId], asOperator);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("argument 'ordrs' is invalid");
    expect(bad.stdout).toBe('');
    expect(await row()).toMatchObject({ status: 'DEAD_LETTER', replay_count: 0 });

    const r = await tidemark(['replay-dead-letters', '--domain', 'orders', '--event-id', event.eventId], asOperator);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ replayedCount: 1, eventIds: [event.eventId] });
    expect((await row()).replay_count).toBe(1);
    await waitFor(async () => (await row()).status === 'PUBLISHED', { what: 'the replayed dead letter published', timeoutMs: 120000 });
  });

  it('returns a parked outbox event to NEW, which the relay then sends; a bad shard changes nothing', async () => {
    const shard0 = env.resources.mysql.shard(0).db;
    // A campaign of its own: once sent, the projector projects it (a row with no source, out of the way).
    const parked = fitnessEvent('FitnessResultRecorded', sampleFitnessState({ dataId: 43999900, detectId: 43999 }), 1);
    await shard0.transaction(async (trx) => {
      await appendOutboxEvents(trx, [parked], () => env.resources.topics.events.fitness);
      await trx('outbox_events')
        .where({ event_id: parked.eventId })
        .update({ status: 'PARKED', attempts: 20, parked_at: trx.raw('NOW(3)'), last_error_code: 'KafkaJSNumberOfRetriesExceeded' });
    });
    const status = async () => String((await shard0('outbox_events').where({ event_id: parked.eventId }).first()).status);

    const bad = await tidemark(['replay-parked', '--shard', 'first', '--event-id', parked.eventId], asOperator);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("option '--shard <n>' argument 'first' is invalid. a whole number");
    expect(await status()).toBe('PARKED');

    const r = await tidemark(['replay-parked', '--event-id', parked.eventId], asOperator);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({
      count: 1,
      events: [{ eventId: parked.eventId, domain: 'fitness', store: 'mysql', shard: 0 }],
    });
    expect(['NEW', 'PROCESSING', 'SENT']).toContain(await status());
    await waitFor(async () => (await status()) === 'SENT', { what: 'the replayed event sent', timeoutMs: 120000 });
  });

  it('repairs a dropped projection row and removes a row with no source; a malformed id changes nothing', async () => {
    const service = await authHeader(env.settings, 'service');
    for (const [userId, result] of [
      [1, '2.100'],
      [2, '2.300'],
      [3, '1.900'],
    ] as const) {
      const r = await execute(
        url,
        RecordFitnessResultDocument,
        { input: { detectId: CAMPAIGN, userId, projectId: 3, schoolId: 11, grade: 5, result, unit: 'm' } },
        service,
      );
      expect(r.errors).toBeUndefined();
      dataIds.push(r.data!.recordFitnessResult.result.dataId);
    }
    await waitFor(async () => (await chCount(`detect_id = ${uint(CAMPAIGN)}`)) === 3, {
      what: 'the campaign projected',
      timeoutMs: 120000,
    });
    const victim = dataIds[1]!;
    await deleteRows(
      app.resources.clickhouse,
      clickhouseLayout(env.settings),
      env.settings.clickhouseDatabase,
      'fitness_results',
      `data_id = ${uint(victim)}`,
    );
    // A row the source never had (an old commit time, so it is judged at once rather than as in flight).
    const stray = 43000000 + 1;
    const [strayRow] = projectedRows<FitnessRow>([
      fitnessEvent('FitnessResultRecorded', sampleFitnessState({ dataId: stray, detectId: CAMPAIGN, schoolId: 11 }), 1),
    ]);
    await insertRows(app.resources.clickhouse, env.settings.clickhouseDatabase, FITNESS_RESULTS, [strayRow!]);

    let found: { id: string; aggregateId: string; kind: string }[] = [];
    await waitFor(
      async () => {
        const r = await execute(
          url,
          ReconcileDocument,
          { scope: { campaign: { detectId: CAMPAIGN } }, level: 'IDS', escalate: true },
          operator,
        );
        found = r.data?.reconcile.discrepancies ?? [];
        return found.length === 2;
      },
      { what: 'the two discrepancies found', timeoutMs: 60000, intervalMs: 500 },
    );
    const missing = found.find((d) => d.aggregateId === victim && d.kind === 'MISSING')!;
    const unexpected = found.find((d) => d.aggregateId === String(stray) && d.kind === 'UNEXPECTED_ROW')!;
    expect([missing, unexpected].every(Boolean)).toBe(true);
    const statusOf = async (id: string) =>
      (await execute(url, DiscrepanciesDocument, { first: 100 }, operator)).data!.discrepancies.find((d) => d.id === id)?.status;

    const bad = await tidemark(['repair', missing.id, 'seven'], asOperator);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^tidemark: VALIDATION_FAILED: discrepancyIds must be ids of discrepancies \(request [0-9a-f-]{36}\)\n$/);
    expect(await statusOf(missing.id)).toBe('OPEN');
    expect(await chCount(`data_id = ${uint(victim)}`)).toBe(0);

    const repaired = await tidemark(['repair', missing.id], asOperator);
    expect(repaired.stderr).toBe('');
    expect(JSON.parse(repaired.stdout)).toEqual([
      expect.objectContaining({ discrepancyId: missing.id, action: 'REPLAY', outcome: 'SENT' }),
    ]);
    await waitFor(async () => (await chCount(`data_id = ${uint(victim)}`)) === 1, { what: 'the row back', timeoutMs: 120000 });

    const removed = await tidemark(['repair', unexpected.id, '--remove-unexpected', 'no source row: injected by the test'], asOperator);
    expect(removed.stderr).toBe('');
    expect(JSON.parse(removed.stdout)).toEqual([
      expect.objectContaining({ discrepancyId: unexpected.id, action: 'REMOVE_UNEXPECTED', outcome: 'COMPLETED' }),
    ]);
    expect(await chCount(`data_id = ${uint(stray)}`)).toBe(0);
    // The ledger: both repairs verified by re-comparison, both discrepancies resolved.
    await waitFor(
      async () => {
        const r = await execute(url, RepairsDocument, { filter: { domain: 'fitness' }, first: 20 }, operator);
        const mine = r.data!.repairs.filter((x) => x.discrepancyId === missing.id || x.discrepancyId === unexpected.id);
        return mine.length === 2 && mine.every((x) => x.verification === 'PASSED' && x.requestedBy === 'test-operator');
      },
      { what: 'both repairs verified', timeoutMs: 120000 },
    );
    expect(await statusOf(missing.id)).toBe('RESOLVED');
    expect(await statusOf(unexpected.id)).toBe('RESOLVED');
  });

  it('rebuilds a campaign to a verified rebuild with the same data; without a domain or a scope nothing starts', async () => {
    const before = await campaignRows();
    expect(before).toHaveLength(3);
    const rebuilds = async () => (await execute(url, ProjectionRebuildsDocument, { first: 20 }, operator)).data!.projectionRebuilds;
    const noDomain = await tidemark(['rebuild', '--detect-id', String(CAMPAIGN)], asOperator);
    expect(noDomain.code).not.toBe(0);
    expect(noDomain.stderr).toContain("required option '--domain <domain>' not specified");
    const noScope = await tidemark(['rebuild', '--domain', 'fitness', '--from', '2026-01-01T00:00:00Z'], asOperator);
    expect(noScope.code).toBe(1);
    expect(noScope.stderr).toContain('give a scope: --detect-id [--project-id] for fitness, or --from and --to for orders');
    expect(await rebuilds()).toEqual([]);

    const r = await tidemark(
      ['rebuild', '--domain', 'fitness', '--detect-id', String(CAMPAIGN), '--reason', 'e2e: rebuild from the CLI'],
      asOperator,
    );
    expect(r.stderr).toBe('');
    const rebuilt = JSON.parse(r.stdout) as { id: string; status: string; phase: string; sourceRows: number };
    expect(rebuilt).toMatchObject({ status: 'VERIFIED', phase: 'DONE', sourceRows: 3, errorCode: null });
    expect(await rebuilds()).toEqual([expect.objectContaining({ id: rebuilt.id, status: 'VERIFIED', phase: 'DONE' })]);
    expect(await campaignRows()).toEqual(before);
    const again = await execute(
      url,
      ReconcileDocument,
      { scope: { campaign: { detectId: CAMPAIGN } }, level: 'CONTENT', escalate: true },
      operator,
    );
    expect(again.data!.reconcile.run.outcome).toBe('CLEAN');
  });
});
