// Watches what readers are told while faults happen: every `everyMs` it asks the gateway for a fitness
// page and an order page with their freshness markers, and records the status (FRESH, CATCHING_UP,
// STALE) or the error a reader got instead, tagged with the current fault phase.
import { sleep } from '../../../src/shared/lifecycle';
import { FaultFitnessFreshnessDocument, FaultOrdersFreshnessDocument } from '../../generated/graphql';
import { call, isClear, type Answer } from '../../support/timedClient';

export interface FreshnessSample {
  at: number;
  phase: string;
  domain: 'fitness' | 'orders';
  /** FRESH | CATCHING_UP | STALE, or ERROR:<code> / TIMEOUT / NETWORK when the read failed. */
  status: string;
  reason?: string;
  clear: boolean;
  ms: number;
}

function sample(
  domain: 'fitness' | 'orders',
  phase: string,
  a: Answer<{ freshness: { status: string; reason: string } } | undefined>,
): FreshnessSample {
  const base = { at: Date.now(), phase, domain, clear: isClear(a), ms: a.ms };
  if (a.kind === 'data' && a.data) return { ...base, status: a.data.freshness.status, reason: a.data.freshness.reason };
  return { ...base, status: a.kind === 'error' ? `ERROR:${a.code}` : a.kind.toUpperCase() };
}

export class FreshnessProbe {
  readonly samples: FreshnessSample[] = [];
  private phase = 'warm-up';
  private running = false;
  private loop?: Promise<void>;

  constructor(private readonly o: { url: string; headers: Record<string, string>; detectId: number; everyMs: number; timeoutMs: number }) {}

  setPhase(p: string): void {
    this.phase = p;
  }

  /** One fitness and one order read, now. */
  async once(): Promise<FreshnessSample[]> {
    const phase = this.phase;
    const [f, o] = await Promise.all([
      call(this.o.url, FaultFitnessFreshnessDocument, { detectId: this.o.detectId }, this.o.headers, this.o.timeoutMs),
      call(this.o.url, FaultOrdersFreshnessDocument, {}, this.o.headers, this.o.timeoutMs),
    ]);
    const out = [sample('fitness', phase, { ...f, data: f.data?.fitnessResults }), sample('orders', phase, { ...o, data: o.data?.orders })];
    this.samples.push(...out);
    return out;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.once();
        await sleep(this.o.everyMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  of(phase: string, domain?: 'fitness' | 'orders'): FreshnessSample[] {
    return this.samples.filter((s) => s.phase === phase && (!domain || s.domain === domain));
  }
}
