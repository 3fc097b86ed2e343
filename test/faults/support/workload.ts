// The steady traffic the faults are injected under: fitness records, corrections and deletions and
// orders through GraphQL, at a bounded rate, by a few concurrent workers. It keeps an exact model of
// what was committed:
//   - an acknowledged write (data answer) updates the model at once;
//   - a write whose outcome is unknown (error, timeout) is retried until it resolves: records and
//     orders with the same idempotency key (the first result comes back), corrections and deletions
//     with the same expectedVersion (VERSION_CONFLICT at expected + 1, or NOT_FOUND for a deletion,
//     proves the first attempt committed, since this workload is the only writer of its results).
// So at any pause the model is exactly the committed state, and the oracle can demand equality.
import { randomInt } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { sleep } from '../../../src/shared/lifecycle';
import {
  FaultCorrectFitnessDocument,
  FaultDeleteFitnessDocument,
  FaultPlaceOrderDocument,
  FaultRecordFitnessDocument,
  type PlaceOrderInput,
  type RecordFitnessResultInput,
} from '../../generated/graphql';
import { call, isClear, type Answer } from '../../support/timedClient';

export interface FitnessExpected {
  dataId: string;
  version: number;
  result: string;
  unit: string;
  isDeleted: boolean;
  detectId: number;
  userId: number;
  projectId: number;
  schoolId: number;
  grade: number;
}

export interface OrderExpected {
  orderId: string;
  customerId: string;
  currency: string;
  total: string;
  itemCount: number;
}

export interface PhaseStats {
  requests: number;
  acknowledged: number;
  errors: Record<string, number>;
  /** Answers that were neither data nor a clear typed error (hangs, INTERNAL_SERVER_ERROR, network). */
  unclear: number;
  timeouts: number;
  maxMs: number;
  orderOutcomes: Record<string, number>;
}

type Unresolved =
  | { kind: 'record'; key: string; input: RecordFitnessResultInput }
  | { kind: 'order'; key: string; input: PlaceOrderInput }
  | { kind: 'correct'; dataId: string; expectedVersion: number; result: string; unit: string }
  | { kind: 'delete'; dataId: string; expectedVersion: number };

export interface WorkloadOptions {
  url: string;
  headers: Record<string, string>;
  runId: string;
  detectId: number;
  workers: number;
  ratePerSecond: number;
  /** A request slower than this counts as a hang. */
  requestTimeoutMs: number;
  /** Share of the writes that are orders (default 0.2). */
  orderShare?: number;
}

const PERMANENT = new Set([
  'VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'IDEMPOTENCY_CONFLICT',
  'GRAPHQL_VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
]);
const money = () => `${randomInt(1, 500)}.${String(randomInt(0, 100)).padStart(2, '0')}`;
const jump = () => `${randomInt(1, 3)}.${String(randomInt(0, 1000)).padStart(3, '0')}`;

export class Workload {
  readonly fitness = new Map<string, FitnessExpected>();
  readonly orders = new Map<string, OrderExpected>();
  /** Every acknowledged write: aggregate and version (orders are version 1). */
  readonly acknowledged: { domain: 'fitness' | 'orders'; id: string; version: number }[] = [];
  /** Every placeOrder answer: when it was sent, how long it took, and its outcome (or error kind). */
  readonly orderTimings: { startedAt: number; ms: number; outcome: string }[] = [];
  /** Writes first answered with an error, later proven committed by their retry. */
  committedUnacknowledged = 0;
  anomalies: string[] = [];
  private readonly unresolved: Unresolved[] = [];
  private readonly busy = new Set<string>();
  private readonly stats = new Map<string, PhaseStats>();
  private phase = 'warm-up';
  private running = false;
  private loops: Promise<void>[] = [];
  private seq = 0;
  private nextSlot = Date.now();

  constructor(private readonly o: WorkloadOptions) {}

  setPhase(name: string): void {
    this.phase = name;
  }
  phaseStats(name: string): PhaseStats {
    let s = this.stats.get(name);
    if (!s) this.stats.set(name, (s = { requests: 0, acknowledged: 0, errors: {}, unclear: 0, timeouts: 0, maxMs: 0, orderOutcomes: {} }));
    return s;
  }
  allStats(): Record<string, PhaseStats> {
    return Object.fromEntries(this.stats);
  }
  pendingUnresolved(): number {
    return this.unresolved.length;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.o.workers }, () => this.loop());
  }

  /** Stops new writes, waits for in-flight ones, then resolves every unknown outcome (bounded). */
  async pause(resolveTimeoutMs = 90000): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    const deadline = Date.now() + resolveTimeoutMs;
    while (this.unresolved.length) {
      if (Date.now() > deadline) throw new Error(`${this.unresolved.length} writes still have an unknown outcome`);
      const u = this.unresolved.shift()!;
      const before = this.unresolved.length;
      await this.resolve(u);
      if (this.unresolved.length > before) await sleep(250);
    }
  }

  private async pace(): Promise<void> {
    const gap = 1000 / this.o.ratePerSecond;
    const slot = Math.max(this.nextSlot, Date.now());
    this.nextSlot = slot + gap;
    await sleep(slot - Date.now());
  }

  private async loop(): Promise<void> {
    while (this.running) {
      await this.pace();
      if (!this.running) break;
      const u = this.unresolved.length && Math.random() < 0.5 ? this.unresolved.shift() : undefined;
      if (u) await this.resolve(u);
      else await this.fresh();
    }
  }

  private async send<T, V>(doc: TypedDocumentNode<T, V>, variables: V): Promise<Answer<T>> {
    const s = this.phaseStats(this.phase);
    s.requests++;
    const a = await call(this.o.url, doc, variables, this.o.headers, this.o.requestTimeoutMs);
    s.maxMs = Math.max(s.maxMs, a.ms);
    if (a.kind === 'data') s.acknowledged++;
    else if (a.kind === 'error') s.errors[a.code ?? 'NO_CODE'] = (s.errors[a.code ?? 'NO_CODE'] ?? 0) + 1;
    else s.errors[a.kind.toUpperCase()] = (s.errors[a.kind.toUpperCase()] ?? 0) + 1;
    if (a.kind === 'timeout') s.timeouts++;
    if (!isClear(a)) s.unclear++;
    return a;
  }

  private pickLive(): FitnessExpected | undefined {
    const live = [...this.fitness.values()].filter((f) => !f.isDeleted && !this.busy.has(f.dataId));
    return live.length ? live[randomInt(0, live.length)] : undefined;
  }

  private async fresh(): Promise<void> {
    // Fitness writes: 9/16 new records, 5/16 corrections, 2/16 deletions (the last two when a live
    // result exists, else a new record).
    const order = Math.random() < (this.o.orderShare ?? 0.2);
    const roll = Math.random();
    const target = !order && roll >= 0.5625 ? this.pickLive() : undefined;
    if (target && roll < 0.875)
      return this.attempt({ kind: 'correct', dataId: target.dataId, expectedVersion: target.version, result: jump(), unit: 'm' });
    if (target) return this.attempt({ kind: 'delete', dataId: target.dataId, expectedVersion: target.version });
    const key = `${this.o.runId}-${++this.seq}`;
    if (order)
      return this.attempt({
        kind: 'order',
        key: `o-${key}`,
        input: {
          customerId: `customer-${randomInt(1, 200)}`,
          currency: Math.random() < 0.5 ? 'EUR' : 'USD',
          idempotencyKey: `o-${key}`,
          items: Array.from({ length: randomInt(1, 4) }, (_, i) => ({
            sku: `SKU-${i}-${randomInt(1, 50)}`,
            quantity: randomInt(1, 5),
            unitPrice: money(),
          })),
        },
      });
    return this.attempt({
      kind: 'record',
      key: `f-${key}`,
      input: {
        detectId: this.o.detectId,
        userId: randomInt(1, 1000),
        projectId: 3,
        schoolId: randomInt(1, 20),
        grade: randomInt(1, 10),
        result: jump(),
        unit: 'm',
        idempotencyKey: `f-${key}`,
      },
    });
  }

  /** A retry of an unknown outcome; the aggregate stays busy until it resolves. */
  private resolve(u: Unresolved): Promise<void> {
    return this.attempt(u, true);
  }

  private async attempt(u: Unresolved, retry = false): Promise<void> {
    const id = u.kind === 'correct' || u.kind === 'delete' ? u.dataId : undefined;
    if (id) this.busy.add(id);
    const settled = () => id && this.busy.delete(id);
    // Unknown outcomes are retried; an error that a retry cannot change is an anomaly of the run.
    const again = (a?: Answer<unknown>) => {
      if (a?.kind === 'error' && PERMANENT.has(a.code ?? '')) this.anomalies.push(`${u.kind}: ${a.code} ${a.message}`);
      else this.unresolved.push(u);
    };
    switch (u.kind) {
      case 'record': {
        const a = await this.send(FaultRecordFitnessDocument, { input: u.input });
        if (a.kind !== 'data') return again(a);
        const r = a.data!.recordFitnessResult.result;
        if (!this.fitness.has(r.dataId)) {
          this.fitness.set(r.dataId, { ...r });
          this.acknowledged.push({ domain: 'fitness', id: r.dataId, version: r.version });
        }
        return;
      }
      case 'order': {
        const a = await this.send(FaultPlaceOrderDocument, { input: u.input });
        this.orderTimings.push({
          startedAt: Date.now() - a.ms,
          ms: a.ms,
          outcome: a.kind === 'data' ? a.data!.placeOrder.outcome : (a.code ?? a.kind),
        });
        if (a.kind !== 'data') return again(a);
        const p = a.data!.placeOrder;
        const s = this.phaseStats(this.phase);
        s.orderOutcomes[p.outcome] = (s.orderOutcomes[p.outcome] ?? 0) + 1;
        if (!this.orders.has(p.order.orderId)) {
          this.orders.set(p.order.orderId, {
            orderId: p.order.orderId,
            customerId: p.order.customerId,
            currency: p.order.currency,
            total: p.order.total,
            itemCount: p.order.itemCount,
          });
          this.acknowledged.push({ domain: 'orders', id: p.order.orderId, version: 1 });
        }
        return;
      }
      case 'correct':
      case 'delete': {
        const a =
          u.kind === 'correct'
            ? await this.send(FaultCorrectFitnessDocument, {
                dataId: u.dataId,
                expectedVersion: u.expectedVersion,
                result: u.result,
                unit: u.unit,
              })
            : await this.send(FaultDeleteFitnessDocument, { dataId: u.dataId, expectedVersion: u.expectedVersion });
        const cur = this.fitness.get(u.dataId)!;
        if (a.kind === 'data') {
          const d = a.data!;
          const res = 'correctFitnessResult' in d ? d.correctFitnessResult.result : d.deleteFitnessResult.result;
          this.fitness.set(u.dataId, { ...cur, version: res.version, result: res.result, unit: res.unit, isDeleted: res.isDeleted });
          this.acknowledged.push({ domain: 'fitness', id: u.dataId, version: res.version });
          return void settled();
        }
        const proven =
          retry &&
          ((a.code === 'VERSION_CONFLICT' && Number(a.details?.currentVersion) === u.expectedVersion + 1) ||
            (u.kind === 'delete' && a.code === 'NOT_FOUND'));
        if (proven) {
          // The first attempt committed: the model takes its content at the next version.
          this.committedUnacknowledged++;
          const next = u.kind === 'correct' ? { result: canonical3(u.result), unit: u.unit, isDeleted: false } : { isDeleted: true };
          this.fitness.set(u.dataId, { ...cur, ...next, version: u.expectedVersion + 1 });
          return void settled();
        }
        if (a.code === 'VERSION_CONFLICT' || a.code === 'NOT_FOUND') {
          this.anomalies.push(`${u.kind} ${u.dataId}@${u.expectedVersion}: ${a.code} ${JSON.stringify(a.details ?? {})}`);
          return void settled();
        }
        return again(a);
      }
    }
  }
}

/** "2.31" -> "2.310": the canonical 3-decimal form the fitness contract uses. */
export function canonical3(v: string): string {
  const [i, f = ''] = v.split('.');
  return `${i}.${(f + '000').slice(0, 3)}`;
}
