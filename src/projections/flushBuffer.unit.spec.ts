import { exponentialBackoff } from '../shared/backoff';
import { FlushBuffer, ProjectorStoppingError, toBatch, type FlushBatch, type FlushPart, type FlushSink } from './flushBuffer';
import { fitnessProjection } from '../domains/fitness/projection/fitnessProjection';
import type { FitnessRow } from '../domains/fitness/projection/fitnessResultsTable';

const row = (dataId: number, sourceCommitMs: number): FitnessRow => ({
  dataId,
  detectId: 1,
  userId: 1,
  projectId: 1,
  schoolId: 1,
  grade: 1,
  result: '1.000',
  unit: 'm',
  version: 1,
  isDeleted: false,
  createdAtMs: 0,
  sourceCommitMs,
  ingestedAtMs: 0,
  eventId: `e${dataId}`,
  shard: 0,
  measuredAtMs: 0,
  changedBy: '',
  kafkaPartition: 0,
  kafkaOffset: '0',
});
const part = (partition: number, nextOffset: string, rows: FitnessRow[], owned = true): FlushPart => ({
  topic: 't',
  partition,
  nextOffset,
  rows: rows.map((row) => ({ projection: fitnessProjection, row })),
  deadLetters: [],
  messages: rows.length,
  owned: () => owned,
});
const noDelay = exponentialBackoff({ baseMs: 1, maxMs: 1, maxAttempts: Infinity, random: () => 0 });

function recordingSink(failFirst = 0): FlushSink & { batches: FlushBatch[]; attempts: number } {
  const s = {
    batches: [] as FlushBatch[],
    attempts: 0,
    async write(b: FlushBatch) {
      s.attempts++;
      if (s.attempts <= failFirst) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      s.batches.push(b);
    },
  };
  return s;
}

describe('projector flush buffer (group commit)', () => {
  it('merges parts of many partitions into one batch with one checkpoint per partition', () => {
    const b = toBatch([
      part(0, '5', [row(1, 10)]),
      part(1, '3', [row(2, 30)]),
      part(0, '9', [row(3, 20)]),
      part(2, '7', [row(4, 99)], false),
    ]);
    expect(b.rows.get('fitness_results')!.map((r) => (r as FitnessRow).dataId)).toEqual([1, 2, 3, 4]);
    expect(b.checkpoints).toEqual([
      { topic: 't', partition: 0, nextOffset: '9', sourceCommitMs: 20 },
      { topic: 't', partition: 1, nextOffset: '3', sourceCommitMs: 30 },
    ]);
  });

  it('flushes as soon as the batch size is reached, in one write', async () => {
    const sink = recordingSink();
    const buf = new FlushBuffer(sink, { batchSize: 3, flushIntervalMs: 60000, retry: noDelay });
    await Promise.all([buf.add(part(0, '2', [row(1, 1), row(2, 1)])), buf.add(part(1, '1', [row(3, 1)]))]);
    expect(sink.batches).toHaveLength(1);
    expect(sink.batches[0]!.messages).toBe(3);
    await buf.close(1000);
  });

  it('flushes a small batch after the flush interval, never before it', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const sink = recordingSink();
      const writtenAt: number[] = [];
      const timed: FlushSink = { write: async (b) => (writtenAt.push(Date.now()), sink.write(b)) };
      const buf = new FlushBuffer(timed, { batchSize: 1000, flushIntervalMs: 2000, retry: noDelay });
      await Promise.all([buf.add(part(0, '1', [row(1, 1)])), jest.advanceTimersByTimeAsync(5)]);
      // A small part added right after a flush waits for the interval: it is below batchSize, so
      // only the timer can write it.
      let written = false;
      const small = buf.add(part(0, '2', [row(2, 1)])).then(() => (written = true));
      await jest.advanceTimersByTimeAsync(1999);
      expect({ written, batches: sink.batches.length }).toEqual({ written: false, batches: 1 });
      await jest.advanceTimersByTimeAsync(1);
      await jest.advanceTimersByTimeAsync(0);
      expect(written).toBe(true);
      await small;
      expect(sink.batches.map((b) => b.messages)).toEqual([1, 1]);
      expect(writtenAt[1]! - writtenAt[0]!).toBe(2000);
      const closing = buf.close(1000);
      await jest.advanceTimersByTimeAsync(0);
      await closing;
    } finally {
      jest.useRealTimers();
    }
  });

  it('flushes a quiet buffer at once and starts later flushes at least the interval apart', async () => {
    jest.useFakeTimers();
    try {
      const sink = recordingSink();
      const buf = new FlushBuffer(sink, { batchSize: 1000, flushIntervalMs: 1000, retry: noDelay });
      const first = buf.add(part(0, '1', [row(1, 1)]));
      await jest.advanceTimersByTimeAsync(5); // only the few ms that let a fetch's other partitions join
      await first;
      expect(sink.batches).toHaveLength(1);
      const second = buf.add(part(0, '2', [row(2, 1)]));
      const third = buf.add(part(1, '1', [row(3, 1)]));
      await jest.advanceTimersByTimeAsync(900);
      expect(sink.batches).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(100);
      await Promise.all([second, third]);
      expect(sink.batches.map((b) => b.messages)).toEqual([1, 2]);
      const closing = buf.close(1000);
      await jest.advanceTimersByTimeAsync(0);
      await closing;
    } finally {
      jest.useRealTimers();
    }
  });

  it('holds the waiters while the sink fails and resolves them once a retry succeeds', async () => {
    const sink = recordingSink(3);
    const paused: boolean[] = [];
    const buf = new FlushBuffer(sink, { batchSize: 1, flushIntervalMs: 5, retry: noDelay, observer: { paused: (p) => paused.push(p) } });
    await buf.add(part(0, '1', [row(1, 1)]));
    expect(sink.attempts).toBe(4);
    expect(sink.batches).toHaveLength(1);
    expect(paused).toEqual([true, false]);
    await buf.close(1000);
  });

  it('close() flushes what is buffered without waiting for the interval', async () => {
    const sink = recordingSink();
    const buf = new FlushBuffer(sink, { batchSize: 1000, flushIntervalMs: 60000, retry: noDelay });
    const p = buf.add(part(0, '1', [row(1, 1)]));
    await buf.close(1000);
    await p;
    expect(sink.batches).toHaveLength(1);
    await expect(buf.add(part(0, '2', [row(2, 1)]))).rejects.toBeInstanceOf(ProjectorStoppingError);
  });

  it('close() gives up on a sink that keeps failing and rejects, so nothing is committed', async () => {
    const sink = recordingSink(Number.MAX_SAFE_INTEGER);
    const buf = new FlushBuffer(sink, { batchSize: 1000, flushIntervalMs: 60000, retry: noDelay });
    const p = buf.add(part(0, '1', [row(1, 1)]));
    p.catch(() => undefined);
    await buf.close(50);
    await expect(p).rejects.toBeInstanceOf(ProjectorStoppingError);
    expect(sink.batches).toHaveLength(0);
  });
});
