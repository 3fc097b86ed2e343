// Row 9, peer: Debezium's outbox event router against our relay, on the same outbox rows. Debezium
// 3.6.1 (MySQL connector, Kafka Connect standalone) reads the binlog of a private MariaDB
// (bench/lib/binlogMariadb.ts): a first start takes the schema and binlog position (no_data) and is
// stopped, the rows are written, and a second start streams them from that offset; our relay drains
// the same rows from the fitness shards as row 3 does (bench/lib/relayDrain.ts). For each: events/s
// from the first to the last broker append time, CPU per event of the publisher and its database
// server, then commit-to-Kafka latency under a steady trickle of timed batches
// (bench/lib/commitLatency.ts). No target: the row says where we stand beside the tool users would
// pick instead; docs/benchmarks.md ("Peers") compares what each one guarantees.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { livePid } from '../../src/devstack/pidFile';
import { seedOutbox } from '../../test/support/outboxSeed';
import { benchEnv } from '../lib/benchEnv';
import { startBinlogMariadb, type BinlogMariadb } from '../lib/binlogMariadb';
import { deliveryOf, measureCommitLatency, type OutboxTarget } from '../lib/commitLatency';
import { cpuMs, machineBusySince, machineTicks } from '../lib/cpuTime';
import { startDebezium, DEBEZIUM_RELEASE, CONNECT_RELEASE, type DebeziumWorker } from '../lib/debeziumConnect';
import { awaitDelivery, primeDebezium } from '../lib/debeziumDrain';
import { createTopic, readTopic } from '../lib/kafkaUtil';
import type { RoleWorker } from '../lib/processes';
import { startRelayWorkers, timeDrain, unsent } from '../lib/relayDrain';
import type { BenchRow, RowResult } from '../lib/row';
import { perSecond, round, throughputRatio } from '../lib/stats';

const NAME = 'peer: Debezium outbox router vs our relay';

/** The machine's MariaDB (the one our relay reads), for its CPU; undefined where its pid file is elsewhere. */
function machineMariadbPid(): number | undefined {
  return livePid('/run/mysqld/mysqld.pid');
}

export const peerDebeziumRow: BenchRow = {
  id: 9,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const total = ctx.quick ? 20_000 : 100_000;
    const load = { batches: ctx.quick ? 100 : 300, batchSize: 50, intervalMs: 50 };
    const env = await benchEnv();
    const s = env.settings;
    const kafka = env.resources.kafka;
    let maria: BinlogMariadb | undefined;
    let dbz: DebeziumWorker | undefined;
    const workers: RoleWorker[] = [];
    try {
      const relayTopic = `${s.kafkaTopicPrefix}.peer-relay`;
      const dbzTopic = `${s.kafkaTopicPrefix}.peer-debezium`;
      for (const t of [relayTopic, dbzTopic]) await createTopic(kafka, t, s.kafkaPartitions, { appendTime: true });
      const shards: OutboxTarget[] = env.resources.mysql.shards.map((x) => ({ db: x.db, shard: x.index }));
      const perShard = Math.ceil(total / shards.length);
      const count = perShard * shards.length;
      maria = await startBinlogMariadb({ settings: s, database: 'tidemark_bench_binlog', reportVersion: '5.7.19', log: ctx.log });
      const m = maria;
      const dbzOptions = {
        dir: join(m.dir, '..', 'debezium'),
        source: { host: m.host, port: m.port, database: m.database, table: 'outbox_events', ...m.reader },
        brokers: s.kafkaBrokers,
        serverId: 5401,
        log: ctx.log,
      };
      await primeDebezium(kafka, dbzOptions, m.db, `${s.kafkaTopicPrefix}.peer-debezium-primer`);

      // The same events as row 3 (half per shard tag), into the binlog server's one outbox and the shards.
      const binlogTargets: OutboxTarget[] = shards.map((x) => ({ db: m.db, shard: x.shard }));
      ctx.log(`row 9: seeding ${count} outbox rows into the binlog MariaDB and the fitness shards`);
      for (const t of binlogTargets) await seedOutbox(t.db, dbzTopic, perShard, { shard: t.shard, firstSequence: 1, chunk: 1000 });
      for (const t of shards) await seedOutbox(t.db, relayTopic, perShard, { shard: t.shard, firstSequence: 1, chunk: 1000 });

      // Debezium resumes from its offset: time from its first message to the last; CPU over that window.
      await ctx.settle();
      const t0 = performance.now();
      const ticks0 = machineTicks();
      dbz = await startDebezium({ ...dbzOptions, resume: true });
      const worker = dbz;
      const cpuNow = () => cpuMs(worker.pid) + cpuMs(m.pid);
      let firstSeen: { cpu: number; jvm: number; ticks: ReturnType<typeof machineTicks> } | undefined;
      await awaitDelivery(
        kafka,
        worker,
        dbzTopic,
        count,
        () => (firstSeen = { cpu: cpuNow(), jvm: cpuMs(worker.pid), ticks: machineTicks() }),
      );
      const dbzWallMs = performance.now() - t0;
      const dbzCpu = cpuNow() - firstSeen!.cpu;
      const dbzJvmCpu = cpuMs(worker.pid) - firstSeen!.jvm;
      const dbzBusy = machineBusySince(firstSeen!.ticks);
      const dbzStartupBusy = machineBusySince(ticks0);
      const dbzJvmTotal = cpuMs(worker.pid);
      const dbzMessages = deliveryOf(await readTopic(kafka, dbzTopic), 'id');

      ctx.log(`row 9: Debezium commit-to-Kafka latency, ${load.batches} batches of ${load.batchSize} every ${load.intervalMs} ms`);
      await ctx.settle();
      const dbzLatency = await measureCommitLatency(kafka, dbzTopic, binlogTargets, load, 'id');
      await dbz.stop();
      dbz = undefined;
      await maria.stop();
      maria = undefined;

      // Our relay: row 3's drain with one relay process, then the same latency phase.
      ctx.log('row 9: draining the same rows with 1 relay process');
      const dbs = shards.map((x) => x.db);
      workers.push(...(await startRelayWorkers(ctx, s, 1, 'row9-relay')));
      await ctx.settle();
      const mariadbPid = machineMariadbPid();
      const relay = await timeDrain(workers, dbs, count, mariadbPid ? [mariadbPid] : []);
      const relayDrained = deliveryOf(await readTopic(kafka, relayTopic), 'eventId');
      await ctx.settle();
      const relayLatency = await measureCommitLatency(kafka, relayTopic, shards, load, 'eventId', () => unsent(dbs).then((n) => n === 0));
      for (const w of workers.splice(0)) await w.stop();

      const dbzPerSec = perSecond(count, dbzMessages.spanMs);
      const relayPerSec = perSecond(count, relayDrained.spanMs);
      return {
        id: 9,
        name: NAME,
        status: 'ok',
        unit: 'events/s',
        ours: relayPerSec,
        ceiling: dbzPerSec,
        ratio: throughputRatio(relayPerSec, dbzPerSec),
        target: 'peer (no target): ceiling = Debezium',
        details: {
          rows: count,
          partitions: s.kafkaPartitions,
          debezium: {
            release: `Debezium ${DEBEZIUM_RELEASE}, Kafka Connect ${CONNECT_RELEASE} standalone, MySQL connector on MariaDB binlog`,
            eventsPerSec: dbzPerSec,
            firstToLastMs: dbzMessages.spanMs,
            startToLastMs: round(dbzWallMs),
            messages: dbzMessages.messages,
            distinctEvents: dbzMessages.distinct,
            cpuMsPerEvent: round(dbzCpu / count, 4),
            jvmCpuMsPerEvent: round(dbzJvmCpu / count, 4),
            mariadbCpuMsPerEvent: round((dbzCpu - dbzJvmCpu) / count, 4),
            jvmCpuMsTotalWithStartup: round(dbzJvmTotal),
            machineBusy: dbzBusy,
            machineBusyWithStartup: dbzStartupBusy,
            commitToKafkaMs: dbzLatency,
          },
          relay: {
            eventsPerSec: relayPerSec,
            firstToLastMs: relayDrained.spanMs,
            goToDrainedMs: round(relay.ms),
            goToDrainedPerSec: relay.perSec,
            messages: relayDrained.messages,
            distinctEvents: relayDrained.distinct,
            cpuMsPerEvent: round(relay.cpuMsPerEvent + (relay.othersCpuMsPerEvent ?? 0), 4),
            relayCpuMsPerEvent: relay.cpuMsPerEvent,
            mariadbCpuMsPerEvent: relay.othersCpuMsPerEvent,
            machineBusy: relay.machineBusy,
            commitToKafkaMs: relayLatency,
          },
          latencyLoad: { ...load, eventsPerSec: round((load.batchSize * 1000) / load.intervalMs) },
        },
      };
    } finally {
      for (const w of workers) await w.stop().catch(() => undefined);
      if (dbz) await dbz.stop({ keep: true }).catch(() => undefined);
      if (maria) await maria.stop().catch(() => undefined);
      await env.cleanup();
    }
  },
};
