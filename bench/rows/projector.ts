// Row 4, projector: N fitness events already in Kafka (the agreed wire format, 6 partitions) consumed
// by a projector process (bench/workers/roleWorker.ts running the projector role: decode, map,
// buffer, one JSONEachRow insert per flush, checkpoint, commit offsets), timed from `go` until
// ClickHouse holds every row. Ceiling: raw @clickhouse/client inserting the same rows (every column,
// as the projector writes them) in the same batch size, sequentially, into a copy of the table.
import { performance } from 'node:perf_hooks';
import { ident } from '../../src/infra/clickhouse/literal';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import type { DomainEvent } from '../../src/publication/event';
import { fitnessEvent, produceEvents } from '../../test/support/projectionEvents';
import { benchEnv } from '../lib/benchEnv';
import { cpuMs, machineBusySince, machineCpuMsPerOp, machineTicks } from '../lib/cpuTime';
import { chCount, timeProjection } from '../lib/projection';
import type { BenchRow, RowResult } from '../lib/row';
import { perSecond, round, throughputRatio } from '../lib/stats';

export function benchFitnessEvents(count: number, opts: { firstSequence?: number; shards?: number } = {}): DomainEvent[] {
  const shards = opts.shards ?? 2;
  const first = opts.firstSequence ?? 1;
  return Array.from({ length: count }, (_, i) => {
    const seq = first + i;
    const dataId = seq * 100 + (seq % shards);
    return fitnessEvent({
      dataId,
      detectId: 10000 + (seq % 20),
      userId: seq % 50000,
      projectId: 1 + (seq % 8),
      schoolId: 100 + (seq % 300),
      grade: 1 + (seq % 12),
      result: `${1 + (seq % 3)}.${String(seq % 1000).padStart(3, '0')}`,
      version: 1,
    });
  });
}

/** The row the projector writes for an event, as a plain object (every column). */
export function rawFitnessRow(e: DomainEvent, partition: number, offset: number): Record<string, unknown> {
  const d = e.data as {
    dataId: number;
    detectId: number;
    userId: number;
    projectId: number;
    schoolId: number;
    grade: number;
    result: string;
    unit: string;
    version: number;
    isDeleted: boolean;
    createdAt: string;
    updatedAt: string;
  };
  const created = Date.parse(d.createdAt);
  const updated = Date.parse(d.updatedAt);
  const now = Date.now();
  const dt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  return {
    data_id: d.dataId,
    detect_id: d.detectId,
    user_id: d.userId,
    project_id: d.projectId,
    school_id: d.schoolId,
    grade: d.grade,
    result: Number(d.result),
    unit: d.unit,
    version: d.version,
    is_deleted: d.isDeleted ? 1 : 0,
    created_at: dt(created),
    created_at_ms: created,
    source_commit_at: dt(updated),
    source_commit_ms: updated,
    ingested_at: dt(now),
    ingested_at_ms: now,
    event_id: e.eventId,
    shard: e.shard,
    kafka_partition: partition,
    kafka_offset: offset,
  };
}

export const projectorRow: BenchRow = {
  id: 4,
  name: 'projector (Kafka -> ClickHouse)',
  async run(ctx): Promise<RowResult> {
    const total = ctx.quick ? 20_000 : 100_000;
    const env = await benchEnv();
    const s = env.settings;
    const ch = env.resources.clickhouse;
    try {
      const events = benchFitnessEvents(total);
      ctx.log(`row 4: producing ${total} events`);
      const producer = fromKafkaProducer(env.resources.kafka);
      await producer.connect();
      await produceEvents(producer, env.resources.topics.events.fitness, events);
      await producer.disconnect();

      // Ceiling: the same rows, same batch size, sequential inserts into an identical table.
      await ch.command({
        query: `CREATE TABLE ${ident(s.clickhouseDatabase)}.fitness_results_raw AS ${ident(s.clickhouseDatabase)}.fitness_results`,
      });
      const rows = events.map((e, i) => rawFitnessRow(e, i % s.kafkaPartitions, i));
      await ctx.settle();
      const rawCpu0 = cpuMs(process.pid);
      const rawStart = performance.now();
      const rawTicks0 = machineTicks();
      for (let i = 0; i < rows.length; i += s.projectorBatchSize)
        await ch.insert({
          table: `${s.clickhouseDatabase}.fitness_results_raw`,
          values: rows.slice(i, i + s.projectorBatchSize),
          format: 'JSONEachRow',
          clickhouse_settings: { wait_end_of_query: 1 },
        });
      const rawMs = performance.now() - rawStart;
      const rawCpuMs = cpuMs(process.pid) - rawCpu0;
      const rawMachineBusy = machineBusySince(rawTicks0);
      const rawCount = await chCount(ch, s.clickhouseDatabase, 'fitness_results_raw');

      ctx.log('row 4: projecting with 1 member');
      const one = await timeProjection(ctx, env, { members: 1, total, label: 'row4-members1' });
      const ms = one.ms;
      ctx.log('row 4: projecting with 2 members');
      const two = await timeProjection(ctx, env, { members: 2, total, label: 'row4-members2' });
      const ms2 = two.ms;
      const ours = perSecond(total, ms);
      const ceiling = perSecond(rawCount, rawMs);
      const ratio = throughputRatio(ours, ceiling);
      return {
        id: 4,
        name: projectorRow.name,
        status: 'ok',
        unit: 'events/s',
        ours,
        ceiling,
        ratio,
        target: 'ratio >= 0.5',
        met: ratio >= 0.5,
        details: {
          events: total,
          partitions: s.kafkaPartitions,
          batchSize: s.projectorBatchSize,
          flushIntervalMs: s.projectorFlushIntervalMs,
          oursMs: round(ms),
          oursCpuMsPerEvent: one.cpuMsPerEvent,
          oursMachineBusy: one.machineBusy,
          oursMachineCpuMsPerEvent: machineCpuMsPerOp(one.machineBusy, ms, total),
          rawMs: round(rawMs),
          rawClientCpuMsPerEvent: round(rawCpuMs / total, 4),
          rawMachineBusy,
          rawMachineCpuMsPerEvent: machineCpuMsPerOp(rawMachineBusy, rawMs, total),
          rawRows: rawCount,
          twoMembers: {
            ms: round(ms2),
            eventsPerSec: perSecond(total, ms2),
            ratioToCeiling: throughputRatio(perSecond(total, ms2), ceiling),
            cpuMsPerEvent: two.cpuMsPerEvent,
            machineBusy: two.machineBusy,
          },
        },
      };
    } finally {
      await env.cleanup();
    }
  },
};
