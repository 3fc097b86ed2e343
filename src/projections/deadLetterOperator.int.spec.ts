// The projector's dead letters as an operator surface, on the real engines: a real projector
// dead-letters what its mapping rejects (schemaVersion 2 events it does not know yet: it is capped at
// 1, a message that is not JSON); they are listed without their content, page by page; a replay with the unchanged
// mapping (a wrong fix) puts them back with their new reason; after the mapping is fixed (a test mapping that
// understands schemaVersion 2) a replay projects them, keeping their own version and eventId.
import type { Producer } from 'kafkajs';
import { createRegistry } from '../metrics/registry';
import { fromKafkaProducer } from '../infra/kafka/producer';
import { ident, list, uint } from '../infra/clickhouse/literal';
import { toKafkaRecord } from '../publication/event';
import { systemClock } from '../shared/clock';
import { waitFor } from '../shared/lifecycle';
import { fitnessEvent } from '../../test/support/projectionEvents';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { testProjectorOptions } from '../../test/support/projectorOptions';
import { projectorDeadLetters, type ProjectorDeadLetters } from './deadLetterOperator';
import { mapMessage, type MessageMapper } from './mapMessage';
import { startProjector } from './projector';
import type { Projector } from './projectorOptions';

/** A first, wrong fix: schemaVersion 2 read as version 1, forgetting the renamed field. */
const halfFixedMapping: MessageMapper = (m, domain, at) => {
  const v = m.value?.toString('utf8').replace('"schemaVersion":2', '"schemaVersion":1');
  return mapMessage({ ...m, value: v === undefined ? null : Buffer.from(v) }, domain, at);
};

/** The fixed mapping: schemaVersion 2 is version 1 with a renamed field (data.score instead of data.result). */
const fixedMapping: MessageMapper = (m, domain, at) => {
  let v: { schemaVersion?: number; data?: Record<string, unknown> } | undefined;
  try {
    v = m.value ? (JSON.parse(m.value.toString('utf8')) as typeof v) : undefined;
  } catch {
    v = undefined;
  }
  if (!v || v.schemaVersion !== 2 || !v.data) return mapMessage(m, domain, at);
  const { score, ...data } = v.data;
  return mapMessage({ ...m, value: Buffer.from(JSON.stringify({ ...v, schemaVersion: 1, data: { ...data, result: score } })) }, domain, at);
};

describe('projector dead letters', () => {
  let env: TestEnv;
  let producer: Producer;
  let projector: Projector;
  const registry = createRegistry(false);
  const campaign = { detectId: 44001, projectId: 3, schoolId: 7, grade: 5 };
  const v2 = (dataId: number) => {
    const wire = JSON.parse(
      toKafkaRecord(fitnessEvent({ ...campaign, dataId, userId: dataId, result: '2.500', version: 1 })).value,
    ) as Record<string, unknown> & { data: Record<string, unknown> };
    const { result, ...data } = wire.data;
    return { key: String(dataId), value: JSON.stringify({ ...wire, schemaVersion: 2, data: { ...data, score: result } }) };
  };
  const operations = (map: MessageMapper): ProjectorDeadLetters =>
    projectorDeadLetters({
      ch: env.resources.clickhouse,
      database: env.settings.clickhouseDatabase,
      consumer: projector.groupId,
      clock: systemClock,
      map,
      registry,
    });

  beforeAll(async () => {
    env = await createTestEnv();
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    // A reader of the previous deploy (EVENT_SCHEMA_VERSION_CAP=1): schemaVersion 2 is beyond what it knows.
    // Uncapped, it would read version 2 by the contract and call these renamed-field events INVALID_DATA.
    projector = await startProjector(testProjectorOptions(env, { reads: { fitness: 1, orders: 1 } }));
  });
  afterAll(async () => {
    await projector?.stop();
    await producer?.disconnect();
    await env?.cleanup();
  });

  const projected = async (ids: number[]) => {
    const rs = await env.resources.clickhouse.query({
      query: `SELECT toString(data_id) AS id, max(version) AS v, any(event_id) AS e, toString(argMax(result, version)) AS r
              FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results WHERE data_id IN ${list(ids, uint)} GROUP BY data_id ORDER BY data_id`,
      format: 'JSONEachRow',
    });
    return rs.json<{ id: string; v: number | string; e: string; r: string }>();
  };

  it('lands what the mapping rejects in the dead letters, lists it page by page without its content, and counts the backlog', async () => {
    await producer.send({
      topic: env.resources.topics.events.fitness,
      acks: -1,
      messages: [v2(880001), v2(880101), { key: 'x', value: '{not json' }, v2(880201)],
    });
    const ops = operations(mapMessage);
    const all = await waitFor(
      async () => {
        const rows = await ops.list({}, 50);
        return rows.length === 4 ? rows : undefined;
      },
      { timeoutMs: 30000, what: 'four dead letters listed' },
    );
    expect(all.map((d) => d.reason).sort()).toEqual([
      'MALFORMED_JSON',
      'UNSUPPORTED_SCHEMA_VERSION',
      'UNSUPPORTED_SCHEMA_VERSION',
      'UNSUPPORTED_SCHEMA_VERSION',
    ]);
    expect(all.find((d) => d.aggregateId === '880001')).toMatchObject({
      domain: 'fitness',
      sourceTopic: env.resources.topics.events.fitness,
      eventId: 'fitness-result-880001-v1',
      status: 'DEAD',
      replays: 0,
    });
    expect(all.find((d) => d.reason === 'MALFORMED_JSON')).toMatchObject({ eventId: '', aggregateId: '' });
    expect(JSON.stringify(all)).not.toMatch(/not json|score|2\.500/); // never the message itself

    // Keyset pages: two, then the rest after the last one, in the same order, without overlap.
    const first = await ops.list({}, 2);
    const last = first[first.length - 1]!;
    const rest = await ops.list({}, 50, {
      deadAtMs: last.deadAtMs,
      topic: last.sourceTopic,
      partition: last.sourcePartition,
      offset: last.sourceOffset,
    });
    expect([...first, ...rest].map((d) => d.sourceOffset + '@' + d.sourcePartition)).toEqual(
      all.map((d) => d.sourceOffset + '@' + d.sourcePartition),
    );
    expect(await ops.list({ reasons: ['MALFORMED_JSON'] }, 50)).toHaveLength(1);

    expect(await registry.getSingleMetricAsString('tidemark_projector_dead_letter_backlog')).toContain(
      'tidemark_projector_dead_letter_backlog{domain="fitness"} 4',
    );
  });

  it('puts a replay the mapping still rejects back with its new error', async () => {
    const again = await operations(halfFixedMapping).replay({ reasons: ['UNSUPPORTED_SCHEMA_VERSION'] }, 10, 'test-operator');
    expect(again).toHaveLength(3);
    expect(
      again.every((d) => d.outcome === 'REJECTED_AGAIN' && d.status === 'DEAD' && d.replays === 1 && d.lastReplayedBy === 'test-operator'),
    ).toBe(true);
    expect(again.map((d) => [d.reason, d.detail])).toEqual(Array(3).fill(['INVALID_DATA', expect.stringContaining('result')]));
    expect(await projected([880001, 880101, 880201])).toEqual([]);
    expect((await operations(mapMessage).list({}, 50)).filter((d) => d.replays === 1)).toHaveLength(3);
  });

  it('projects them with the fixed mapping, keeping their version and eventId; the malformed one stays dead', async () => {
    const ops = operations(fixedMapping);
    const dead = await ops.list({}, 50);
    const chosen = dead.filter((d) => d.aggregateId !== '880201');
    const replayed = await ops.replay(
      { keys: chosen.map((d) => ({ topic: d.sourceTopic, partition: d.sourcePartition, offset: d.sourceOffset })) },
      chosen.length,
      'test-operator',
    );
    expect(Object.fromEntries(replayed.map((d) => [d.aggregateId || d.reason, d.outcome]))).toEqual({
      '880001': 'PROJECTED',
      '880101': 'PROJECTED',
      MALFORMED_JSON: 'REJECTED_AGAIN',
    });
    expect(await projected([880001, 880101, 880201])).toEqual([
      { id: '880001', v: expect.anything(), e: 'fitness-result-880001-v1', r: expect.stringMatching(/^2\.5(00)?$/) },
      { id: '880101', v: expect.anything(), e: 'fitness-result-880101-v1', r: expect.stringMatching(/^2\.5(00)?$/) },
    ]);
    expect((await projected([880001])).map((r) => Number(r.v))).toEqual([1]);
    expect((await ops.list({ statuses: ['REPLAYED'] }, 50)).map((d) => d.aggregateId).sort()).toEqual(['880001', '880101']);
    expect((await ops.list({}, 50)).map((d) => d.aggregateId || d.reason).sort()).toEqual(['880201', 'MALFORMED_JSON']);
    expect(await registry.getSingleMetricAsString('tidemark_projector_dead_letter_backlog')).toContain(
      'tidemark_projector_dead_letter_backlog{domain="fitness"} 2',
    );
  });

  it('discards the malformed one an operator judged not to be an event: it leaves the backlog and is never projected', async () => {
    const ops = operations(fixedMapping);
    const malformed = (await ops.list({ reasons: ['MALFORMED_JSON'] }, 50))[0]!;
    const key = { topic: malformed.sourceTopic, partition: malformed.sourcePartition, offset: malformed.sourceOffset };
    const discarded = await ops.discard([key], 'test-operator');
    expect(discarded.map((d) => [d.status, d.lastReplayedBy])).toEqual([['DISCARDED', 'test-operator']]);
    expect(await ops.discard([key], 'test-operator')).toEqual([]); // only DEAD ones are discarded
    expect((await ops.list({}, 50)).map((d) => d.aggregateId || d.reason)).toEqual(['880201']);
    expect((await ops.list({ statuses: ['DISCARDED'] }, 50)).map((d) => d.reason)).toEqual(['MALFORMED_JSON']);
    expect(await registry.getSingleMetricAsString('tidemark_projector_dead_letter_backlog')).toContain(
      'tidemark_projector_dead_letter_backlog{domain="fitness"} 1',
    );
  });
});
