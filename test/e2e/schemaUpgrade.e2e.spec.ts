// Readers first, writers after, on the real stack (docs/upgrades.md): a process pinned to schema
// version 1 (EVENT_SCHEMA_VERSION_CAP=1, what the previous deploy would be) writes 1, announces it reads
// 1 and dead-letters the version-2 event an upgraded writer sent early (the residual race) as
// UNSUPPORTED_SCHEMA_VERSION, as it does a version-3 event nobody knows. Replaced by an uncapped
// process, the group agrees on 2, the gateway writes 2, and replayProjectorDeadLetters applies the
// parked version-2 event; the version-3 one stays dead.
import type { Producer } from 'kafkajs';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { toKafkaRecord } from '../../src/publication/event';
import { waitFor } from '../../src/shared/lifecycle';
import { EventSchemaHealthDocument, ProjectorDeadLettersDocument, ReplayProjectorDeadLettersDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { fitnessEvent } from '../support/projectionEvents';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(180000);

const campaign = { detectId: 46001, projectId: 3, schoolId: 7, grade: 5 };

/** A fitness event as it travels, in `schemaVersion` (version 2 adds changedBy and measuredAt). */
function wire(dataId: number, schemaVersion: number) {
  const v1 = JSON.parse(toKafkaRecord(fitnessEvent({ ...campaign, dataId, userId: dataId, result: '2.500', version: 1 })).value) as {
    data: Record<string, unknown>;
  };
  const data = schemaVersion >= 2 ? { ...v1.data, changedBy: 'teacher-7', measuredAt: null } : v1.data;
  return { key: String(dataId), value: JSON.stringify({ ...v1, schemaVersion, data }) };
}

describe('a rolling upgrade of the event schema', () => {
  let env: TestEnv;
  let app: Tidemark | undefined;
  let producer: Producer;
  let operator: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({ eventSchemaGateRefreshMs: 500 });
    operator = await authHeader(env.settings, 'operator');
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
  });
  afterAll(async () => {
    await app?.stop();
    await producer?.disconnect();
    await env?.cleanup();
  });

  const url = () => app!.gateway!.url;
  const eventSchema = async () =>
    (await execute(url(), EventSchemaHealthDocument, { domain: 'fitness' }, operator)).data?.publicationHealth[0]?.eventSchema;
  const deadLetters = async () =>
    (await execute(url(), ProjectorDeadLettersDocument, { filter: { domain: 'fitness' }, first: 50 }, operator)).data
      ?.projectorDeadLetters ?? [];
  const projected = async (dataId: number) => {
    const rs = await env.resources.clickhouse.query({
      query: `SELECT count() AS n FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results WHERE data_id = ${uint(dataId)}`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]?.n ?? 0);
  };

  it('parks what an old reader cannot read, writes what every reader reads, and replays once the readers know it', async () => {
    // The previous deploy: knows version 1 only, for reading and writing.
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'projector'], eventSchemaVersionCap: 1 }, { migrate: false });
    await waitFor(async () => (await eventSchema())?.readersAgree === 1, { timeoutMs: 60000, what: 'the capped projector announced 1' });
    expect(await eventSchema()).toEqual({ writing: 1, newestKnown: 1, readersAgree: 1 });

    await producer.send({ topic: env.resources.topics.events.fitness, acks: -1, messages: [wire(460002, 2), wire(460003, 3)] });
    const parked = await waitFor(
      async () => {
        const rows = await deadLetters();
        return rows.length === 2 ? rows : undefined;
      },
      { timeoutMs: 30000, what: 'two dead letters' },
    );
    expect(parked.map((d) => [d.aggregateId, d.reason]).sort()).toEqual([
      ['460002', 'UNSUPPORTED_SCHEMA_VERSION'],
      ['460003', 'UNSUPPORTED_SCHEMA_VERSION'],
    ]);
    // Replayed by the same old deploy: still beyond what it knows.
    const early = await execute(url(), ReplayProjectorDeadLettersDocument, { filter: { domain: 'fitness' }, limit: 10 }, operator);
    expect(early.data!.replayProjectorDeadLetters).toMatchObject({ projected: 0, rejectedAgain: 2 });

    // The upgrade: the old process goes, an uncapped one comes; the group agrees on 2 and the gateway follows.
    await app.stop();
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'projector'] }, { migrate: false });
    await waitFor(async () => (await eventSchema())?.writing === 2, { timeoutMs: 60000, what: 'the gateway to write version 2' });
    expect(await eventSchema()).toEqual({ writing: 2, newestKnown: 2, readersAgree: 2 });

    const replay = await execute(url(), ReplayProjectorDeadLettersDocument, { filter: { domain: 'fitness' }, limit: 10 }, operator);
    expect(replay.data!.replayProjectorDeadLetters).toMatchObject({ projected: 1, rejectedAgain: 1 });
    expect(await projected(460002)).toBe(1);
    expect(await projected(460003)).toBe(0);
    const left = await deadLetters();
    expect(left.map((d) => [d.aggregateId, d.status, d.reason])).toEqual([['460003', 'DEAD', 'UNSUPPORTED_SCHEMA_VERSION']]);
  });
});
