// The seed's teacher story over GraphQL against a running Tidemark (gateway + relay roles): record a
// standing long jump of 2.21 m, correct it to 2.31 m, and Kafka holds version 2 with 2.31. Also the
// typed errors a client sees, and the operator's view and replay of parked events.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  DeleteFitnessResultDocument,
  ParkedOutboxEventsDocument,
  RecordFitnessResultDocument,
  ReplayParkedEventsDocument,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { readTopic } from '../support/readTopic';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(60000);

describe('fitness results over GraphQL', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50 });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const jump = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' };

  it('teacher story: record 2.21, correct to 2.31, and Kafka holds version 2 with 2.31', async () => {
    const rec = await execute(url, RecordFitnessResultDocument, { input: { ...jump, idempotencyKey: 'teacher-7:jump:student-4' } }, client);
    expect(rec.errors).toBeUndefined();
    const first = rec.data!.recordFitnessResult;
    expect(first).toMatchObject({
      replayed: false,
      result: { version: 1, result: '2.210', unit: 'm', isDeleted: false },
      publication: { state: 'NEW' },
    });
    const dataId = first.result.dataId;
    expect(first.publication.eventId).toBe(`fitness-result-${dataId}-v1`);

    // The client's retry (e.g. after a timeout) returns the first result instead of writing twice.
    const retry = await execute(
      url,
      RecordFitnessResultDocument,
      { input: { ...jump, idempotencyKey: 'teacher-7:jump:student-4' } },
      client,
    );
    expect(retry.data!.recordFitnessResult).toMatchObject({ replayed: true, result: { dataId, version: 1 } });

    const cor = await execute(url, CorrectFitnessResultDocument, { dataId, expectedVersion: 1, result: '2.31', unit: 'm' }, client);
    expect(cor.errors).toBeUndefined();
    expect(cor.data!.correctFitnessResult).toMatchObject({
      result: { dataId, version: 2, result: '2.310' },
      publication: { eventId: `fitness-result-${dataId}-v2` },
    });

    const msgs = await readTopic(app.resources.kafka, app.resources.topics.events.fitness, (m) =>
      m.some((x) => x.envelope.eventId === `fitness-result-${dataId}-v2`),
    );
    const v2 = msgs.find((x) => x.envelope.eventId === `fitness-result-${dataId}-v2`)!;
    expect(v2.key).toBe(dataId);
    expect(v2.envelope).toMatchObject({
      type: 'FitnessResultCorrected',
      version: 2,
      isDeleted: false,
      data: { dataId: Number(dataId), result: '2.310', unit: 'm', version: 2, detectId: 10001, userId: 4, projectId: 3 },
    });
    const mine = msgs.filter((x) => x.key === dataId);
    expect(Math.max(...mine.map((x) => x.envelope.version))).toBe(2);
    expect(new Set(mine.map((x) => x.partition)).size).toBe(1);

    // A second teacher working from version 1 gets a typed conflict carrying the current version.
    const stale = await execute(url, CorrectFitnessResultDocument, { dataId, expectedVersion: 1, result: '2.41', unit: 'm' }, client);
    expect(stale.errors![0]!.extensions).toMatchObject({
      code: 'VERSION_CONFLICT',
      retriable: false,
      details: { currentVersion: 2, expectedVersion: 1 },
    });

    const del = await execute(url, DeleteFitnessResultDocument, { dataId, expectedVersion: 2 }, client);
    expect(del.data!.deleteFitnessResult).toMatchObject({
      result: { version: 3, isDeleted: true },
      publication: { eventId: `fitness-result-${dataId}-v3` },
    });
  });

  it('answers bad input with stable codes and safe messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...jump, unit: 'furlong' }, 'VALIDATION_FAILED'],
      [{ ...jump, result: '-2.21' }, 'VALIDATION_FAILED'],
      [{ ...jump, result: '2.2101' }, 'VALIDATION_FAILED'],
      [{ ...jump, unit: 'x'.repeat(5000) }, 'VALIDATION_FAILED'],
      [{ ...jump, result: 2.21 }, 'BAD_USER_INPUT'],
    ];
    for (const [input, code] of cases) {
      const r = await execute(url, RecordFitnessResultDocument, { input: input as typeof jump }, client);
      expect(r.errors![0]!.extensions!.code).toBe(code);
      expect(r.errors![0]!.message.length).toBeLessThan(200);
      expect(r.errors![0]!.message).not.toMatch(/sql|insert|select|stack/i);
    }
    const missing = await execute(
      url,
      CorrectFitnessResultDocument,
      { dataId: '987654301', expectedVersion: 1, result: '2.31', unit: 'm' },
      client,
    );
    expect(missing.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    const noToken = await execute(url, RecordFitnessResultDocument, { input: jump });
    expect(noToken.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });

  it('lets an operator (only) see parked events and replay them with their original version', async () => {
    const rec = await execute(url, RecordFitnessResultDocument, { input: { ...jump, userId: 5 } }, client);
    const { dataId, shard } = rec.data!.recordFitnessResult.result;
    const db = app.resources.mysql.shard(shard).db;
    const eventId = `fitness-result-${dataId}-v1`;
    await waitFor(async () => (await db('outbox_events').where({ event_id: eventId }).first('status'))?.status === 'SENT', {
      what: 'v1 sent',
    });
    // As if every attempt had failed: the row is parked with its error summary.
    await db('outbox_events').where({ event_id: eventId }).update({
      status: 'PARKED',
      attempts: 20,
      last_error_code: 'KafkaJSNumberOfRetriesExceeded',
      last_error_summary: 'broker unreachable',
    });

    const forbidden = await execute(url, ParkedOutboxEventsDocument, { filter: { domain: 'fitness' } }, client);
    expect(forbidden.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const parked = await execute(url, ParkedOutboxEventsDocument, { filter: { domain: 'fitness', aggregateId: dataId } }, operator);
    expect(parked.data!.parkedOutboxEvents).toEqual([
      expect.objectContaining({
        eventId,
        version: 1,
        store: 'mysql',
        shard,
        attempts: 20,
        lastErrorCode: 'KafkaJSNumberOfRetriesExceeded',
      }),
    ]);

    const replay = await execute(url, ReplayParkedEventsDocument, { filter: { eventIds: [eventId] } }, operator);
    expect(replay.data!.replayParkedEvents).toEqual({ count: 1, events: [{ eventId, version: 1, store: 'mysql', shard }] });
    await waitFor(async () => (await db('outbox_events').where({ event_id: eventId }).first('status'))?.status === 'SENT', {
      what: 'replayed event sent',
    });
    const msgs = await readTopic(
      app.resources.kafka,
      app.resources.topics.events.fitness,
      (m) => m.filter((x) => x.envelope.eventId === eventId).length >= 2,
    );
    expect(msgs.filter((x) => x.envelope.eventId === eventId).map((x) => x.envelope.version)).toEqual([1, 1]);

    const metrics = await (await fetch(url.replace(/\/graphql$/, '/metrics'))).text();
    expect(metrics).toMatch(/tidemark_outbox_sent_total\{store="mysql",shard="\d"\} \d+/);
    expect(metrics).toContain('tidemark_outbox_replayed_total');
  });
});
