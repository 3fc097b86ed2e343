// Events that expire on Kafka before the projector applies them are never silent. The projector is
// stopped, results are written, corrected and deleted, and their messages then leave the topic the
// way retention removes them: the log start offset moves past them. We use the broker's
// DeleteRecords (admin.deleteTopicRecords), which moves the log start exactly as retention does,
// at once and to the offset we name; retention.ms itself only deletes closed segments when the log
// cleaner next runs (every log.retention.check.interval.ms, 5 minutes by default), which would make
// the test slow and its timing the broker's. When the projector comes back: the skipped offsets are
// counted, freshness is STALE with EVENTS_EXPIRED, the reconciler reconciles the window's campaign
// at once and repairs what was lost, and freshness returns to FRESH.
import { ConfigResourceTypes } from 'kafkajs';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  DeleteFitnessResultDocument,
  FitnessResultsPageDocument,
  RecordFitnessResultDocument,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(120000);

const CAMPAIGN = 43001;

describe('events expired on Kafka before they were applied', () => {
  let env: TestEnv;
  let app: Tidemark;
  const others: Tidemark[] = [];
  let url: string;
  let client: Record<string, string>;
  const ids: string[] = [];

  beforeAll(async () => {
    env = await createTestEnv({
      kafkaRetentionMs: 3600000,
      reconcileGraceMs: 300,
      reconcileExpiredPollMs: 200,
      freshnessCacheMs: 0,
      repairWaitMs: 30000,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
  });
  afterAll(async () => {
    for (const t of others.reverse()) await t.stop();
    await app?.stop();
    await env?.cleanup();
  });

  const start = async (roles: ('projector' | 'reconciler')[]) => {
    const t = await startTidemark({ ...env.settings, roles }, { migrate: false });
    others.push(t);
    return t;
  };
  const stop = async (t: Tidemark) => {
    await t.stop();
    others.splice(others.indexOf(t), 1);
  };
  const topic = () => env.resources.topics.events.fitness;
  async function offsets() {
    const admin = env.resources.kafka.admin();
    await admin.connect();
    try {
      return await admin.fetchTopicOffsets(topic());
    } finally {
      await admin.disconnect();
    }
  }
  const published = async () => (await offsets()).reduce((n, p) => n + Number(p.high), 0);
  async function projected(): Promise<Map<string, { version: number; deleted: boolean }>> {
    const rs = await app.resources.clickhouse.query({
      query: `SELECT toString(data_id) AS id, max(version) AS v, argMax(is_deleted, version) AS d FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results
              WHERE detect_id = ${uint(CAMPAIGN)} GROUP BY data_id`,
      format: 'JSONEachRow',
    });
    return new Map(
      (await rs.json<{ id: string; v: string; d: number }>()).map((r) => [r.id, { version: Number(r.v), deleted: Number(r.d) === 1 }]),
    );
  }
  async function freshness() {
    const r = await execute(url, FitnessResultsPageDocument, { filter: { detectId: CAMPAIGN }, first: 50 }, client);
    expect(r.errors).toBeUndefined();
    return r.data!.fitnessResults.freshness;
  }
  async function record(userId: number): Promise<string> {
    const r = await execute(
      url,
      RecordFitnessResultDocument,
      { input: { detectId: CAMPAIGN, userId, projectId: 3, schoolId: 9, grade: 6, result: '1.50', unit: 'm' } },
      client,
    );
    expect(r.errors).toBeUndefined();
    return r.data!.recordFitnessResult.result.dataId;
  }

  it('creates topics with the retention of the setting', async () => {
    const admin = env.resources.kafka.admin();
    await admin.connect();
    try {
      const d = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic(), configNames: ['retention.ms'] }],
      });
      expect(d.resources[0]!.configEntries.find((e) => e.configName === 'retention.ms')?.configValue).toBe('3600000');
    } finally {
      await admin.disconnect();
    }
  });

  it('counts the skipped offsets, marks freshness STALE with EVENTS_EXPIRED, reconciles and repairs the window at once, and is FRESH again', async () => {
    const first = await start(['projector']);
    for (let i = 0; i < 4; i++) ids.push(await record(10 + i));
    await waitFor(async () => (await projected()).size === 4, { timeoutMs: 30000, what: 'the first results projected' });
    await stop(first);

    // While the projector is stopped: a correction, a deletion and three new results reach Kafka...
    const before = await published();
    expect(
      (await execute(url, CorrectFitnessResultDocument, { dataId: ids[0]!, expectedVersion: 1, result: '1.75', unit: 'm' }, client)).errors,
    ).toBeUndefined();
    expect((await execute(url, DeleteFitnessResultDocument, { dataId: ids[1]!, expectedVersion: 1 }, client)).errors).toBeUndefined();
    for (let i = 0; i < 3; i++) ids.push(await record(20 + i));
    await waitFor(async () => (await published()) === before + 5, { timeoutMs: 30000, what: 'the five events on Kafka' });
    // ...and expire before it is back: every partition's log start moves to its end.
    const admin = env.resources.kafka.admin();
    await admin.connect();
    try {
      await admin.fetchTopicMetadata({ topics: [topic()] }); // kafkajs needs the partition leaders loaded
      await admin.deleteTopicRecords({
        topic: topic(),
        partitions: (await offsets()).map((p) => ({ partition: p.partition, offset: p.high })),
      });
    } finally {
      await admin.disconnect();
    }
    expect((await offsets()).every((p) => p.low === p.high)).toBe(true);

    const second = await start(['projector']);
    await waitFor(
      async () =>
        (await second.registry.getSingleMetricAsString('tidemark_projector_expired_offsets_total')).includes('{domain="fitness"} 5'),
      {
        timeoutMs: 30000,
        what: 'the five skipped offsets counted',
      },
    );
    // The counter moves when a range is detected; the range reaches ClickHouse with its partition's
    // next flush, so the marker may first count the ranges of some partitions only (3 of 5 once in
    // CI). Wait until it counts all five.
    const stale = await waitFor(
      async () => {
        const f = await freshness();
        return f.reason === 'EVENTS_EXPIRED' && f.detail.includes('5 event(s)') ? f : undefined;
      },
      { timeoutMs: 30000, what: 'freshness STALE/EVENTS_EXPIRED counting the five events' },
    );
    expect(stale).toMatchObject({ status: 'STALE', reason: 'EVENTS_EXPIRED' });
    expect(stale.detail).toContain('5 event(s)');
    // The read model really lacks them: three results missing, a correction and a deletion not applied.
    const lacking = await projected();
    expect(lacking.size).toBe(4);
    expect(lacking.get(ids[0]!)).toEqual({ version: 1, deleted: false });
    expect(lacking.get(ids[1]!)).toEqual({ version: 1, deleted: false });

    await start(['reconciler']);
    await waitFor(async () => (await freshness()).status === 'FRESH', { timeoutMs: 60000, intervalMs: 250, what: 'freshness FRESH again' });

    const repaired = await projected();
    expect(repaired.size).toBe(7);
    expect(repaired.get(ids[0]!)).toEqual({ version: 2, deleted: false });
    expect(repaired.get(ids[1]!)).toEqual({ version: 2, deleted: true });
    for (const id of ids.slice(4)) expect(repaired.get(id)).toEqual({ version: 1, deleted: false });
    const runs = await env.resources
      .pg('reconciliation_runs')
      .where({ trigger: 'EXPIRED_EVENTS' })
      .orderBy('id')
      .select('scope_key', 'outcome');
    expect(runs[0]).toEqual({ scope_key: `fitness:detect=${CAMPAIGN}`, outcome: 'DISCREPANCIES' });
    expect(runs[runs.length - 1]).toEqual({ scope_key: `fitness:detect=${CAMPAIGN}`, outcome: 'CLEAN' });
    const repairs = await env.resources
      .pg('reconciliation_repairs')
      .orderBy('aggregate_id')
      .select('aggregate_id', 'action', 'verification', 'requested_by');
    expect(repairs.map((r) => [r.aggregate_id, r.action, r.verification])).toEqual(
      [[ids[0], 'REPLAY', 'PASSED'], [ids[1], 'TOMBSTONE', 'PASSED'], ...ids.slice(4).map((id) => [id, 'REPLAY', 'PASSED'])].sort((a, b) =>
        String(a[0]).localeCompare(String(b[0])),
      ),
    );
    expect(repairs.every((r) => String(r.requested_by).startsWith('scheduler:'))).toBe(true);
    const rs = await app.resources.clickhouse.query({
      query: `SELECT argMax(status, version) AS s FROM ${ident(env.settings.clickhouseDatabase)}.projection_expired_offsets
              GROUP BY topic, partition, from_offset`,
      format: 'JSONEachRow',
    });
    const ranges = await rs.json<{ s: string }>();
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((r) => r.s === 'RESOLVED')).toBe(true);
  });
});
