// The resume guard: keeps each partition a projector member owns in step with what the read model holds
// (decideResume.ts decides, this reads and seeks).
//   - On assignment it reads the store's checkpoints and seeks every assigned partition to them, so a
//     ClickHouse that is new, emptied or older than the group's committed offsets is filled from there,
//     idle partitions included. Until that read answered, the partition's batches wait (ready()).
//   - Each batch is checked against the position: one fetched before the seek is dropped and read again.
//   - Every `checkMs` it compares the store's checkpoints with what this member wrote: a store that lost
//     them (emptied under traffic, restored from an older copy) is caught even while new flushes go on,
//     because checkpoint inserts are conditional on the store still holding the last one
//     (insertCheckpoints.ts): once it lost it, no checkpoint of this member lands until it sought back.
// A seek moves the partition's epoch on, so parts of batches fetched before it write no checkpoint.
import type { RetryPolicy } from '../../shared/backoff';
import { sleep } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { decideBatch, decideCheck, type PartitionResume } from './decideResume';

export interface ResumePorts {
  /** The store's checkpoint per partition of a topic (max next_offset); throws while it cannot answer. */
  readStored(topic: string): Promise<Map<number, bigint>>;
  /** Where the consumer reads the partition next. */
  seek(topic: string, partition: number, offset: bigint): void;
  /** Called after each seek, before the partition's next batch (the expiry detector forgets it). */
  sought?(topic: string, partition: number, offset: bigint): void;
  /** Counts a store found behind what was written. */
  lost?(topic: string, partition: number, from: bigint, to: bigint): void;
}

export interface ResumeGuard {
  /** A new assignment: forget every partition, read the store and seek each assigned one to it. */
  assigned(assignment: Record<string, number[]>): void;
  /** Resolves once the partition's position is known (or the guard closed). */
  ready(topic: string, partition: number): Promise<void>;
  /** 'apply', or 'dropped' when the batch starts past what the store holds (the guard sought back). */
  batch(topic: string, partition: number, first: string): 'apply' | 'dropped';
  /** Moves on with every seek of the partition: a part fetched under an older epoch is not owned. */
  epoch(topic: string, partition: number): number;
  /** What the store should hold for the partition before this member writes a checkpoint (0: unknown). */
  expectedStored(topic: string, partition: number): bigint;
  /** A checkpoint insert for the partition ran (conditional: it may have written nothing). */
  wrote(topic: string, partition: number, nextOffset: string): void;
  /** Compares the store with what was written and seeks back where it lost data. */
  check(): Promise<void>;
  close(): void;
}

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export function resumeGuard(ports: ResumePorts, o: { logger: Logger; retry: RetryPolicy }): ResumeGuard {
  const state = new Map<string, PartitionResume>();
  const epochs = new Map<string, number>();
  const waits = new Map<string, Promise<void>>();
  let generation = 0;
  const closed = new AbortController();

  function seekTo(topic: string, partition: number, offset: bigint): void {
    const k = keyOf(topic, partition);
    epochs.set(k, (epochs.get(k) ?? 0) + 1);
    ports.sought?.(topic, partition, offset);
    ports.seek(topic, partition, offset);
  }

  /** Reads the store for a topic until it answers, then positions each of its assigned partitions. */
  async function position(topic: string, partitions: number[], gen: number): Promise<void> {
    for (let attempt = 1; !closed.signal.aborted && gen === generation; attempt++) {
      try {
        const stored = await ports.readStored(topic);
        if (gen !== generation || closed.signal.aborted) return;
        for (const partition of partitions) {
          const at = stored.get(partition) ?? 0n;
          state.set(keyOf(topic, partition), { position: at });
          seekTo(topic, partition, at);
        }
        return;
      } catch (err) {
        if (attempt === 1 || attempt % 10 === 0)
          o.logger.warn({ topic, attempt, error: summarizeError(err) }, 'cannot read the checkpoints of assigned partitions; retrying');
        await sleep(o.retry.delayMs(attempt), closed.signal);
      }
    }
  }

  return {
    assigned(assignment) {
      const gen = ++generation;
      state.clear();
      waits.clear();
      for (const [topic, partitions] of Object.entries(assignment)) {
        const done = position(topic, partitions, gen);
        for (const partition of partitions) waits.set(keyOf(topic, partition), done);
      }
    },
    ready: (topic, partition) => waits.get(keyOf(topic, partition)) ?? Promise.resolve(),
    batch(topic, partition, first) {
      const p = state.get(keyOf(topic, partition));
      if (!p) return 'apply'; // not positioned (the guard closed or the assignment moved on): stale anyway
      const d = decideBatch(p, BigInt(first));
      if (d.kind === 'apply') return 'apply';
      p.refusedFirst = d.refusedFirst;
      seekTo(topic, partition, d.offset);
      return 'dropped';
    },
    epoch: (topic, partition) => epochs.get(keyOf(topic, partition)) ?? 0,
    expectedStored: (topic, partition) => state.get(keyOf(topic, partition))?.position ?? 0n,
    wrote(topic, partition, nextOffset) {
      const p = state.get(keyOf(topic, partition));
      const next = BigInt(nextOffset);
      if (p && next > p.position) {
        p.position = next;
        p.refusedFirst = undefined;
      }
    },
    async check() {
      const byTopic = new Map<string, { partition: number; was: bigint }[]>();
      for (const [k, p] of state) {
        const [topic, partition] = k.split('\u0000') as [string, string];
        const list = byTopic.get(topic) ?? [];
        list.push({ partition: Number(partition), was: p.position });
        byTopic.set(topic, list);
      }
      const gen = generation;
      for (const [topic, partitions] of byTopic) {
        const stored = await ports.readStored(topic);
        if (gen !== generation) return;
        for (const { partition, was } of partitions) {
          const d = decideCheck({ position: was }, stored.get(partition));
          const p = state.get(keyOf(topic, partition));
          if (d.kind === 'keep' || !p) continue;
          o.logger.warn(
            { topic, partition, written: was.toString(), held: d.offset.toString() },
            'the read model lost what was applied; re-applying',
          );
          ports.lost?.(topic, partition, d.offset, was);
          p.position = d.offset;
          p.refusedFirst = undefined;
          seekTo(topic, partition, d.offset);
        }
      }
    },
    close() {
      closed.abort();
      generation++;
    },
  };
}
