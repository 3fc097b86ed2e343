// Projector dead letters make freshness honest, on the real engines (18.16 server, embedded 26.7): an
// unresolved dead letter of an event in a campaign makes that campaign's reads (scope markers and the
// aggregate's own marker) STALE with PROJECTOR_DEAD_LETTERED while another campaign stays FRESH; once
// it is replayed (the row's next version says REPLAYED) the campaign is FRESH again. A dead letter that
// cannot be decoded could be anyone's: the whole domain is STALE until it is replayed. Rows are
// written with the projector's own insert (insertDeadLetters), read through the real service.
import { projectorGroupId } from '../projectorGroup';
import { toKafkaRecord } from '../../publication/event';
import { systemClock } from '../../shared/clock';
import { waitFor } from '../../shared/lifecycle';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessEvent } from '../../../test/support/projectionEvents';
import { insertDeadLetters, storedOf, type StoredDeadLetter } from '../sql/insertDeadLetters';
import { createFreshnessService, type FreshnessService } from './freshnessService';
import { fromPublicationStores } from './pendingPublications';
import { fromKafkaAndCheckpoints } from './projectionProgress';
import type { PendingScope } from '../../publication/pendingScope';

const campaign = (detectId: number): PendingScope => ({ domain: 'fitness', dataEquals: { detectId, projectId: 3 } });

describe('projector dead letters in freshness markers', () => {
  let env: TestEnv;
  let service: FreshnessService;
  let consumer: string;

  beforeAll(async () => {
    env = await createTestEnv();
    consumer = projectorGroupId(env.settings);
    service = createFreshnessService({
      pending: fromPublicationStores({ shards: env.resources.mysql, pg: env.resources.pg }),
      progress: fromKafkaAndCheckpoints({
        kafka: env.resources.kafka,
        clickhouse: env.resources.clickhouse,
        database: env.settings.clickhouseDatabase,
        topics: env.resources.topics,
        consumer,
        staleAfterMs: 60000,
      }),
      clock: systemClock,
      cacheMs: 1000, // the default: the cache must not hide a dead letter the checkpoints moved past
      staleAfterMs: 60000,
    });
  });
  afterAll(async () => {
    await service?.close();
    await env?.cleanup();
  });

  let offset = 0;
  async function deadLetter(value: string | null, key: string | null): Promise<StoredDeadLetter> {
    const row = storedOf(
      consumer,
      {
        domain: 'fitness',
        reason: 'INVALID_DATA',
        detail: 'data.result: decimal',
        sourceTopic: env.resources.topics.events.fitness,
        sourcePartition: 0,
        sourceOffset: String(++offset),
        key: key === null ? null : Buffer.from(key),
        value: value === null ? null : Buffer.from(value),
        headers: {},
      },
      Date.now(),
    );
    await insertDeadLetters(env.resources.clickhouse, env.settings.clickhouseDatabase, [row]);
    return row;
  }
  const replayed = (row: StoredDeadLetter) =>
    insertDeadLetters(env.resources.clickhouse, env.settings.clickhouseDatabase, [
      { ...row, status: 'REPLAYED', replays: 1, lastReplayedAtMs: Date.now(), lastReplayedBy: 'op', version: row.version + 1 },
    ]);
  const scoped = (detectId: number) => service.forScope(campaign(detectId));
  const reasonOf = async (detectId: number) => (await scoped(detectId)).reason;
  const until = (what: string, check: () => Promise<boolean>) => waitFor(check, { timeoutMs: 20000, intervalMs: 100, what });

  it('a dead letter in a campaign makes that campaign STALE with its reason, and only it, until it is replayed', async () => {
    expect(await scoped(60001)).toMatchObject({ status: 'FRESH', reason: 'UP_TO_DATE' });
    const e = fitnessEvent({
      dataId: 1201,
      detectId: 60001,
      projectId: 3,
      schoolId: 11,
      userId: 501,
      grade: 5,
      version: 2,
      result: '2.310',
    });
    const r = toKafkaRecord(e);
    const row = await deadLetter(r.value, r.key);

    await until('the campaign STALE', async () => (await reasonOf(60001)) === 'PROJECTOR_DEAD_LETTERED');
    const stale = await scoped(60001);
    expect(stale).toMatchObject({ status: 'STALE', reason: 'PROJECTOR_DEAD_LETTERED' });
    expect(stale.detail).toContain('1 event(s) in scope');
    expect(await scoped(60002)).toMatchObject({ status: 'FRESH' });
    const [own, other] = await service.forAggregates('fitness', ['1201', '1301']);
    expect(own).toMatchObject({ status: 'STALE', reason: 'PROJECTOR_DEAD_LETTERED' });
    expect(other).toMatchObject({ status: 'FRESH' });
    // The caller's membership applies: a teacher of another school sees the aggregate as unknown.
    expect((await service.forAggregates('fitness', ['1201'], { schoolId: [12] }))[0]).toMatchObject({ status: 'FRESH' });
    expect((await service.forScope({ ...campaign(60001), dataIn: { schoolId: [12] } })).status).toBe('FRESH');

    await replayed(row);
    await until('the campaign FRESH again', async () => (await scoped(60001)).status === 'FRESH');
    expect((await service.forAggregates('fitness', ['1201']))[0]).toMatchObject({ status: 'FRESH' });
  });

  it('a dead letter that cannot be decoded makes the whole domain STALE until it is replayed', async () => {
    const row = await deadLetter('not json at all', null);
    await until('every campaign STALE', async () => (await reasonOf(60002)) === 'PROJECTOR_DEAD_LETTERED');
    expect(await reasonOf(60001)).toBe('PROJECTOR_DEAD_LETTERED');
    expect((await service.forAggregates('fitness', ['1301']))[0]).toMatchObject({ status: 'STALE', reason: 'PROJECTOR_DEAD_LETTERED' });
    expect(await service.forScope({ domain: 'orders' })).toMatchObject({ status: 'FRESH' });

    await replayed(row);
    await until('the domain FRESH again', async () => (await scoped(60002)).status === 'FRESH');
  });
});
