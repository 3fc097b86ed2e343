// Group commit for the projector. Every partition's batch handler adds its mapped messages as a
// `part` and waits; the buffer writes all parts of all partitions with one insert per table. It
// flushes when it holds `batchSize` messages, and otherwise at the next flush slot: flushes start at
// least `flushIntervalMs` apart, so a quiet projector writes an event at once (after COALESCE_MS, to
// let the other partitions of the same fetch join) while a busy one makes at most one insert per
// table per interval (ClickHouse wants few, large inserts). A part's promise resolves only after the
// sink acknowledged everything in that flush, so the caller may then commit its Kafka offsets.
//
// A failed flush (ClickHouse or the dead-letter topic unavailable) is retried with the injected
// RetryPolicy, for as long as it takes: the waiting handlers keep their partitions paused, nothing is
// committed, nothing is lost. Flushes never overlap. `close()` flushes what is buffered; if that
// cannot succeed before its deadline the parts are rejected and their offsets stay uncommitted, so
// the next owner of those partitions re-reads them (re-delivery is harmless downstream).
import type { RetryPolicy } from '../shared/backoff';
import { sleep } from '../shared/lifecycle';
import type { ProjectionRowBase } from '../domains/contract/decoded';
import type { Checkpoint, DeadLetter, ExpiredRange, ProjectedRow } from './rows';

export interface FlushPart {
  topic: string;
  partition: number;
  /** Offset after the part's last message. */
  nextOffset: string;
  /** The part's rows, each with its projection (table). */
  rows: ProjectedRow[];
  deadLetters: DeadLetter[];
  /** Offsets found expired right before this part (written before the checkpoint that passes them). */
  expired?: ExpiredRange[];
  /** Messages in the part (rows + dead letters); what `batchSize` counts. */
  messages: number;
  /** False once the partition was revoked from this member: its checkpoint is then left out. */
  owned(): boolean;
}

export interface FlushBatch {
  /** Rows by projection table name (one insert per table). */
  rows: Map<string, ProjectionRowBase[]>;
  deadLetters: DeadLetter[];
  expired: ExpiredRange[];
  checkpoints: Checkpoint[];
  messages: number;
}

export interface FlushSink {
  /** Writes the batch; resolves once every store acknowledged it. Must be safe to repeat. */
  write(batch: FlushBatch): Promise<void>;
}

export interface FlushObserver {
  flushed?(batch: FlushBatch, ms: number): void;
  failed?(err: unknown, attempt: number): void;
  paused?(paused: boolean): void;
}

export class ProjectorStoppingError extends Error {
  constructor() {
    super('projector stopped before the batch was acknowledged; it will be re-delivered');
    this.name = 'ProjectorStoppingError';
  }
}

/** Parts of one Kafka fetch reach the buffer within a few milliseconds of each other. */
const COALESCE_MS = 5;

interface Waiting {
  part: FlushPart;
  resolve(): void;
  reject(err: unknown): void;
}

/** The newest source commit time in a part (0 when it has no rows). */
export function newestCommitMs(p: Pick<FlushPart, 'rows'>): number {
  let max = 0;
  for (const { row } of p.rows) if (row.sourceCommitMs > max) max = row.sourceCommitMs;
  return max;
}

/** Merges parts into one batch; the checkpoint per partition is its highest offset. */
export function toBatch(parts: FlushPart[]): FlushBatch {
  const checkpoints = new Map<string, Checkpoint>();
  const batch: FlushBatch = { rows: new Map(), deadLetters: [], expired: [], checkpoints: [], messages: 0 };
  for (const p of parts) {
    for (const { projection, row } of p.rows) {
      const rows = batch.rows.get(projection.table.name);
      if (rows) rows.push(row);
      else batch.rows.set(projection.table.name, [row]);
    }
    batch.deadLetters.push(...p.deadLetters);
    if (p.expired) batch.expired.push(...p.expired);
    batch.messages += p.messages;
    if (!p.owned()) continue;
    const commitMs = newestCommitMs(p);
    const key = `${p.topic}\u0000${p.partition}`;
    const prev = checkpoints.get(key);
    checkpoints.set(key, {
      topic: p.topic,
      partition: p.partition,
      nextOffset: prev && BigInt(prev.nextOffset) > BigInt(p.nextOffset) ? prev.nextOffset : p.nextOffset,
      sourceCommitMs: Math.max(prev?.sourceCommitMs ?? 0, commitMs),
    });
  }
  batch.checkpoints = [...checkpoints.values()];
  return batch;
}

export class FlushBuffer {
  private waiting: Waiting[] = [];
  private buffered = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closing = false;
  private lastFlushStartedAt = Number.NEGATIVE_INFINITY;
  private readonly abandon = new AbortController();

  constructor(
    private readonly sink: FlushSink,
    private readonly opts: { batchSize: number; flushIntervalMs: number; retry: RetryPolicy; observer?: FlushObserver },
  ) {}

  /** Buffers a part; resolves when it is durably written, rejects if the buffer closes first. */
  add(part: FlushPart): Promise<void> {
    if (this.closing) return Promise.reject(new ProjectorStoppingError());
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ part, resolve, reject });
      this.buffered += part.messages;
      if (this.buffered >= this.opts.batchSize) this.kick();
      else if (!this.flushing) this.scheduleNextSlot();
    });
  }

  /** Arms the flush timer for the next slot (a running flush re-arms it when it ends). */
  private scheduleNextSlot(): void {
    if (this.timer) return;
    const slot = this.lastFlushStartedAt + this.opts.flushIntervalMs - Date.now();
    this.timer = setTimeout(() => this.kick(), Math.max(Math.min(COALESCE_MS, this.opts.flushIntervalMs), slot));
  }

  /** Flushes what is buffered, waiting at most `deadlineMs` for a failing sink before giving up. */
  async close(deadlineMs: number): Promise<void> {
    this.closing = true;
    this.kick();
    const giveUp = setTimeout(() => this.abandon.abort(), deadlineMs);
    try {
      while (this.flushing) await this.flushing;
    } finally {
      clearTimeout(giveUp);
    }
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing ??= this.run().finally(() => {
      this.flushing = undefined;
      // Parts that arrived during the flush: flush now if full, or at the next slot.
      if (this.waiting.length === 0) return;
      if (this.closing || this.buffered >= this.opts.batchSize) this.kick();
      else this.scheduleNextSlot();
    });
  }

  private async run(): Promise<void> {
    const taken = this.waiting;
    this.waiting = [];
    this.buffered = 0;
    if (taken.length === 0) return;
    this.lastFlushStartedAt = Date.now();
    const batch = toBatch(taken.map((w) => w.part));
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      try {
        await this.sink.write(batch);
        if (attempt > 1) this.opts.observer?.paused?.(false);
        this.opts.observer?.flushed?.(batch, Date.now() - started);
        for (const w of taken) w.resolve();
        return;
      } catch (err) {
        this.opts.observer?.failed?.(err, attempt);
        if (attempt === 1) this.opts.observer?.paused?.(true);
        // RetryPolicy only paces the retries: giving up would lose acknowledged-nowhere events, so
        // the only way out of a failing flush is a successful write or close()'s deadline.
        await sleep(this.opts.retry.delayMs(attempt), this.abandon.signal);
        if (this.abandon.signal.aborted) {
          this.opts.observer?.paused?.(false);
          for (const w of taken) w.reject(new ProjectorStoppingError());
          return;
        }
      }
    }
  }
}
