// Row 8, peer: the tool a user would pick instead of our projector, ClickHouse's own Kafka table
// engine with a materialized view (bench/lib/clickhouseKafkaEngine.ts), consuming the same events from
// the same topic as one projector member (row 4's timed path) in the same run, one after the other.
// Events: row 4's generator, 1% of them corrections (version 2 with a new result; half sent before
// their version 1, so a late version 1 follows the newer one in its partition). Both targets are
// fitness_results tables created by our migration. Each side is timed from the moment its consumers
// own the partitions until its table holds every event as a physical row (merges held meanwhile, so
// corrections cannot collapse rows before they are counted); CPU is the projector
// process's and the ClickHouse server's (/proc), and the machine's. Then both tables are checked.
// Scale-out as in row 4: 2 projector members, and the engine with kafka_num_consumers = 2.
import { ch002FitnessResults } from '../../migrations/clickhouse/002_fitness_results';
import { clickhouseLayout, dropDatabaseStatement } from '../../src/infra/clickhouse/layout';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { migrateClickHouse } from '../../src/infra/migrate';
import type { DomainEvent } from '../../src/publication/event';
import { fitnessEvent, produceEvents, type FitnessState } from '../../test/support/projectionEvents';
import { benchEnv } from '../lib/benchEnv';
import { timeKafkaEngine, type KafkaEngineRun } from '../lib/clickhouseKafkaEngine';
import { machineCpuMsPerOp } from '../lib/cpuTime';
import { checkFitnessTable, expectedLatest, physicalAfterMerge, withMergesStopped, type FitnessTableCheck } from '../lib/fitnessChecks';
import { deleteGroups, startGroupAtBeginning } from '../lib/kafkaUtil';
import { listeningPid } from '../lib/processes';
import { chCount, projectorGroupId, timeProjection } from '../lib/projection';
import type { BenchRow, RowResult } from '../lib/row';
import { perSecond, round, throughputRatio } from '../lib/stats';
import { benchFitnessEvents } from './projector';

/** Row 4's events with `corrections` of them corrected (version 2); half of the corrections go first. */
export function eventsWithCorrections(total: number, corrections: number): DomainEvent[] {
  const base = benchFitnessEvents(total - corrections);
  const fixed = base.slice(0, corrections).map((e, i) => {
    const d = e.data as unknown as FitnessState;
    return fitnessEvent({ ...d, updatedAt: undefined, version: 2, result: `9.${String(i % 1000).padStart(3, '0')}` });
  });
  const early = fixed.slice(0, corrections / 2);
  return [...early, ...base, ...fixed.slice(corrections / 2)];
}

export const peerClickHouseKafkaRow: BenchRow = {
  id: 8,
  name: 'peer: ClickHouse Kafka engine + MV',
  async run(ctx): Promise<RowResult> {
    const total = ctx.quick ? 20_000 : 100_000;
    const corrections = total / 100;
    const env = await benchEnv();
    const s = env.settings;
    const ch = env.resources.clickhouse;
    const kafka = env.resources.kafka;
    const topic = env.resources.topics.events.fitness;
    const peerDb = `${s.clickhouseDatabase}_peer`;
    const peerGroup = `${s.kafkaTopicPrefix}.bench-peer-clickhouse`;
    const serverPid = listeningPid(Number(new URL(s.clickhouseUrl).port || 8123));
    try {
      const [version] = await (await ch.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>();
      const events = eventsWithCorrections(total, corrections);
      ctx.log(`row 8: producing ${total} events (${corrections} corrections)`);
      const producer = fromKafkaProducer(kafka);
      await producer.connect();
      await produceEvents(producer, topic, events);
      await producer.disconnect();

      ctx.log('row 8: our projector, 1 member');
      const projection = { members: 1, total, label: 'row8-ours', alsoPid: serverPid };
      const expected = expectedLatest(events);
      // Checked before merges resume: the physical rows are those the consumer wrote.
      const [ours, oursCheck] = await withMergesStopped(ch, s.clickhouseDatabase, async () => [
        await timeProjection(ctx, env, projection),
        await checkFitnessTable(ch, s.clickhouseDatabase, expected),
      ]);
      oursCheck.physicalAfterMerge = await physicalAfterMerge(ch, s.clickhouseDatabase);

      // The engine into a fresh table of our migration, with a fresh group started at offset 0 (librdkafka
      // would start at the end), merges held while timing, the table checked before they resume.
      const timeEngine = async (database: string, group: string, consumers: number): Promise<[KafkaEngineRun, FitnessTableCheck]> => {
        await migrateClickHouse(ch, database, clickhouseLayout(s), [ch002FitnessResults]);
        await startGroupAtBeginning(kafka, group, topic, s.kafkaPartitions);
        await ctx.settle();
        const engine = { database, table: 'fitness_events_kafka', brokers: s.kafkaBrokers, topic, group, consumers };
        const rows = () => chCount(ch, database, 'fitness_results');
        const timed = { ...engine, partitions: s.kafkaPartitions, total, serverPid, rows };
        const [run, check] = await withMergesStopped(ch, database, async () => [
          await timeKafkaEngine(ch, kafka, timed),
          await checkFitnessTable(ch, database, expected),
        ]);
        return [run, { ...check, physicalAfterMerge: await physicalAfterMerge(ch, database) }];
      };
      ctx.log(`row 8: ClickHouse ${version!.v} Kafka engine + materialized view`);
      let peer: KafkaEngineRun | undefined;
      let peerCheck: FitnessTableCheck | undefined;
      let peer2: KafkaEngineRun | undefined;
      let peerError: string | undefined;
      try {
        [peer, peerCheck] = await timeEngine(peerDb, peerGroup, 1);
      } catch (err) {
        // Reported, not thrown: our side was measured, and why the engine failed is the finding.
        peerError = `ClickHouse ${version!.v} Kafka engine: ${err instanceof Error ? err.message.slice(0, 300) : String(err)}`;
      }
      // Scale-out, as in row 4: 2 projector members (a fresh group) and kafka_num_consumers = 2.
      ctx.log('row 8: 2 projector members, then kafka_num_consumers = 2');
      const ours2 = await withMergesStopped(ch, s.clickhouseDatabase, () =>
        timeProjection(ctx, env, { ...projection, members: 2, label: 'row8-ours2' }),
      );
      if (peer) [peer2] = await timeEngine(`${peerDb}2`, `${peerGroup}-2`, 2);

      const oursPerSec = perSecond(total, ours.ms);
      const peerPerSec = peer ? perSecond(total, peer.ms) : undefined;
      return {
        id: 8,
        name: peerClickHouseKafkaRow.name,
        status: 'ok',
        unit: 'events/s',
        ours: oursPerSec,
        ceiling: peerPerSec,
        ratio: peerPerSec === undefined ? undefined : throughputRatio(oursPerSec, peerPerSec),
        target: 'none: peer comparison',
        ...(peerError ? { note: peerError } : {}),
        details: {
          events: total,
          corrections,
          partitions: s.kafkaPartitions,
          clickhouse: version!.v,
          serverPid,
          ours: {
            ms: round(ours.ms),
            eventsPerSec: oursPerSec,
            projectorCpuMsPerEvent: ours.cpuMsPerEvent,
            serverCpuMsPerEvent: ours.alsoCpuMsPerEvent,
            machineBusy: ours.machineBusy,
            machineCpuMsPerEvent: machineCpuMsPerOp(ours.machineBusy, ours.ms, total),
            check: oursCheck,
          },
          peer: peer && {
            ms: round(peer.ms),
            eventsPerSec: peerPerSec,
            msFromCreate: round(peer.msFromCreate),
            firstRowsMsFromCreate: round(peer.firstRowsMsFromCreate),
            kafkaNumConsumers: 1,
            kafkaPositions: peer.positions ? 'virtual columns _partition, _offset' : 'none on this server (no _partition/_offset): 0',
            serverCpuMsPerEvent: round(peer.serverCpuMs / total, 4),
            machineBusy: peer.machineBusy,
            machineCpuMsPerEvent: machineCpuMsPerOp(peer.machineBusy, peer.msFromCreate, total),
            check: peerCheck,
          },
          sameLatestRows: peerCheck ? oursCheck.digest === peerCheck.digest : undefined,
          scaleOut: {
            oursTwoMembers: {
              eventsPerSec: perSecond(total, ours2.ms),
              projectorCpuMsPerEvent: ours2.cpuMsPerEvent,
              machineBusy: ours2.machineBusy,
            },
            peerTwoConsumers: peer2 && {
              eventsPerSec: perSecond(total, peer2.ms),
              serverCpuMsPerEvent: round(peer2.serverCpuMs / total, 4),
              machineBusy: peer2.machineBusy,
            },
          },
        },
      };
    } finally {
      for (const db of [peerDb, `${peerDb}2`])
        await ch.command({ query: dropDatabaseStatement(clickhouseLayout(s), db) }).catch(() => undefined);
      const groups = [peerGroup, `${peerGroup}-2`, ...['row8-ours', 'row8-ours2'].map((l) => projectorGroupId(s.kafkaTopicPrefix, l))];
      await deleteGroups(kafka, groups).catch(() => undefined);
      await env.cleanup();
    }
  },
};
