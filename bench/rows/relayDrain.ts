// Row 3, relay drain: N pre-seeded outbox rows (half on each fitness shard, written the way the write
// path writes them) drained to Kafka by 1 and then 2 relay processes (bench/workers/roleWorker.ts
// running the relay role: claim SKIP LOCKED -> sendBatch acks=all -> mark SENT, plus its state-change
// notifications), timed from `go` until no row is unsent. Ceiling: raw kafkajs producing the very
// same records with the same batch size and acks=all, one sender per shard (the relay runs one loop
// per store), on the same producer settings, into a private topic with the same partitions.
import { performance } from 'node:perf_hooks';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { toKafkaRecord, type DomainEvent } from '../../src/publication/event';
import { seedOutbox } from '../../test/support/outboxSeed';
import { benchEnv } from '../lib/benchEnv';
import { cpuMs, machineBusySince, machineCpuMsPerOp, machineTicks } from '../lib/cpuTime';
import { createTopic, topicMessageCount } from '../lib/kafkaUtil';
import type { RoleWorker } from '../lib/processes';
import { resetToNew, startRelayWorkers, timeDrain, type Drained } from '../lib/relayDrain';
import type { BenchRow, RowResult } from '../lib/row';
import { perSecond, round, throughputRatio } from '../lib/stats';

export const relayDrainRow: BenchRow = {
  id: 3,
  name: 'relay drain (outbox -> Kafka)',
  async run(ctx): Promise<RowResult> {
    const total = ctx.quick ? 20_000 : 100_000;
    const env = await benchEnv();
    const s = env.settings;
    const workers: RoleWorker[] = [];
    try {
      const dbs = env.resources.mysql.shards.map((x) => x.db);
      const perShard = Math.ceil(total / dbs.length);
      ctx.log(`row 3: seeding ${perShard * dbs.length} outbox rows`);
      const events: DomainEvent[][] = [];
      for (const shard of env.resources.mysql.shards)
        events.push(
          await seedOutbox(shard.db, env.resources.topics.events.fitness, perShard, { shard: shard.index, firstSequence: 1, chunk: 1000 }),
        );
      const count = events.reduce((n, e) => n + e.length, 0);

      // Ceiling: the same records, same batch size, acks=all, one sequential sender per shard.
      const rawTopic = `${s.kafkaTopicPrefix}.bench-raw-relay`;
      await createTopic(env.resources.kafka, rawTopic, s.kafkaPartitions);
      const producer = fromKafkaProducer(env.resources.kafka);
      await producer.connect();
      const records = events.map((list) => list.map((e) => toKafkaRecord(e)));
      await ctx.settle();
      const rawCpu0 = cpuMs(process.pid);
      const rawStart = performance.now();
      const rawTicks0 = machineTicks();
      await Promise.all(
        records.map(async (list) => {
          for (let i = 0; i < list.length; i += s.relayBatchSize)
            await producer.sendBatch({ acks: -1, topicMessages: [{ topic: rawTopic, messages: list.slice(i, i + s.relayBatchSize) }] });
        }),
      );
      const rawMs = performance.now() - rawStart;
      const rawCpuMs = cpuMs(process.pid) - rawCpu0;
      const rawMachineBusy = machineBusySince(rawTicks0);
      await producer.disconnect();
      const rawCount = await topicMessageCount(env.resources.kafka, rawTopic);

      const drain = async (processes: number): Promise<Drained> => {
        const started = await startRelayWorkers(ctx, s, processes, `row3-relay${processes}`);
        workers.push(...started);
        await ctx.settle();
        const drained = await timeDrain(started, dbs, count);
        for (const w of started.splice(0)) await w.stop();
        workers.length = 0;
        return drained;
      };
      ctx.log('row 3: draining with 1 relay process');
      const one = await drain(1);
      await resetToNew(dbs);
      ctx.log('row 3: draining with 2 relay processes');
      const two = await drain(2);
      const delivered = await topicMessageCount(env.resources.kafka, env.resources.topics.events.fitness);

      const ceiling = perSecond(count, rawMs);
      const ratio = throughputRatio(one.perSec, ceiling);
      const twoFaster = two.ms < one.ms;
      return {
        id: 3,
        name: relayDrainRow.name,
        status: 'ok',
        unit: 'events/s',
        ours: one.perSec,
        ceiling,
        ratio,
        target: 'ratio >= 0.6; 2 relays faster than 1',
        met: ratio >= 0.6 && twoFaster,
        details: {
          rows: count,
          shards: dbs.length,
          batchSize: s.relayBatchSize,
          oneRelay: {
            ms: round(one.ms),
            eventsPerSec: one.perSec,
            cpuMsPerEvent: one.cpuMsPerEvent,
            machineBusy: one.machineBusy,
            machineCpuMsPerEvent: machineCpuMsPerOp(one.machineBusy, one.ms, count),
          },
          twoRelays: {
            ms: round(two.ms),
            eventsPerSec: two.perSec,
            ratioToCeiling: throughputRatio(two.perSec, ceiling),
            cpuMsPerEvent: two.cpuMsPerEvent,
            machineBusy: two.machineBusy,
            machineCpuMsPerEvent: machineCpuMsPerOp(two.machineBusy, two.ms, count),
          },
          raw: {
            ms: round(rawMs),
            eventsPerSec: ceiling,
            messages: rawCount,
            cpuMsPerEvent: round(rawCpuMs / count, 4),
            machineBusy: rawMachineBusy,
            machineCpuMsPerEvent: machineCpuMsPerOp(rawMachineBusy, rawMs, count),
          },
          deliveredMessages: delivered,
        },
        note: twoFaster
          ? undefined
          : `2 relay processes (${round(two.ms)} ms) were not faster than 1 (${round(one.ms)} ms); machine CPU busy ${Math.round(one.machineBusy * 100)}% with 1, ${Math.round(two.machineBusy * 100)}% with 2`,
      };
    } finally {
      for (const w of workers) await w.stop().catch(() => undefined);
      await env.cleanup();
    }
  },
};
