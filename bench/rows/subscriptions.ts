// Row 7, subscriptions: N graphql-ws subscribers (operator tokens, one WebSocket each, all in the
// bench process) on the gateway child, while the bench process emits publication-state changes at a
// fixed rate through the real Kafka state sink (the component relays and publishers report through).
// Delivery latency = receive time - the change's `at` (both clocks are this machine's). Two shapes:
//   per-aggregate: each subscriber filters one aggregateId and changes cycle over the aggregates, so
//                  every change is routed to exactly one subscriber (500 deliveries/s at 500/s);
//   broadcast:     every subscriber takes every change (N x rate deliveries/s).
// "Dropped" = a subscriber whose socket was closed (4008 slow subscriber, or any close) or that
// missed a change meant for it.
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createRegistry } from '../../src/metrics/registry';
import { fromKafkaStateSink } from '../../src/publication/stateChanges/fromKafkaStateSink';
import type { StateChange } from '../../src/publication/stateChanges/stateChange';
import { createLogger } from '../../src/shared/logger';
import { waitFor } from '../../src/shared/lifecycle';
import { benchEnv } from '../lib/benchEnv';
import { bearer, startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import { notBuilt, type BenchRow, type RowResult } from '../lib/row';
import { round, summarize } from '../lib/stats';

const NAME = 'subscriptions: state-change delivery';
const UNIT = 'ms p99';
const TARGET = 'p99 <= 500 ms, 0 dropped';

const SUBSCRIPTION = `subscription Watch($aggregateId: String) { publicationStateChanged(aggregateId: $aggregateId) { eventId aggregateId at } }`;

interface Subscriber {
  client: Client;
  received: number;
  expected: number;
  closed?: number;
}

export interface FanoutReport {
  mode: 'per-aggregate' | 'broadcast';
  subscribers: number;
  ratePerSec: number;
  emitted: number;
  deliveries: number;
  expectedDeliveries: number;
  deliveriesPerSec: number;
  latencyMs: ReturnType<typeof summarize>;
  dropped: number;
  closeCodes: Record<string, number>;
}

async function fanout(o: {
  wsUrl: string;
  authorization: string;
  kafka: import('kafkajs').Kafka;
  topic: string;
  subscribers: number;
  ratePerSec: number;
  durationMs: number;
  tailMs: number;
  mode: FanoutReport['mode'];
  log: (l: string) => void;
}): Promise<FanoutReport> {
  const latencies: number[] = [];
  let measuring = false;
  const subs: Subscriber[] = [];
  const sink = fromKafkaStateSink({ kafka: o.kafka, topic: o.topic, registry: createRegistry(false), logger: createLogger('silent') });
  try {
    for (let i = 0; i < o.subscribers; i++) {
      const sub: Subscriber = { received: 0, expected: 0, client: undefined as unknown as Client };
      sub.client = createClient({
        url: o.wsUrl,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: o.authorization },
        lazy: false,
        retryAttempts: 0,
        on: { closed: (e) => (sub.closed = (e as { code?: number }).code ?? -1) },
      });
      sub.client.subscribe<{ publicationStateChanged: { at: string } }>(
        { query: SUBSCRIPTION, variables: o.mode === 'per-aggregate' ? { aggregateId: `agg-${i}` } : {} },
        {
          next: (v) => {
            const at = v.data?.publicationStateChanged.at;
            if (!at) return;
            sub.received++;
            if (measuring) latencies.push(Date.now() - Date.parse(at));
          },
          error: () => undefined,
          complete: () => undefined,
        },
      );
      subs.push(sub);
    }
    let seq = 0;
    const change = (aggregate: number): StateChange => ({
      eventId: `bench-${seq++}`,
      domain: 'fitness',
      aggregateId: `agg-${aggregate}`,
      version: 1,
      from: 'PROCESSING',
      to: 'SENT',
      attempt: 1,
      at: new Date(),
    });
    // Warm-up: until every subscriber has received a change (the hub joined, every subscription is live).
    o.log(`row 7: ${o.subscribers} subscribers connecting (${o.mode})`);
    await waitFor(
      () => {
        if (o.mode === 'per-aggregate')
          sink.emit(subs.map((s, i) => (s.received === 0 ? change(i) : undefined)).filter((c): c is StateChange => !!c));
        else sink.emit([change(0)]);
        return subs.every((s) => s.received > 0);
      },
      { timeoutMs: 120_000, intervalMs: 1000, what: 'every subscriber to receive a warm-up change' },
    );
    await new Promise((r) => setTimeout(r, 1000));
    for (const s of subs) s.received = s.expected = 0;
    measuring = true;
    o.log(`row 7: emitting ${o.ratePerSec} changes/s for ${o.durationMs} ms`);
    const t0 = performance.now();
    let emitted = 0;
    while (performance.now() - t0 < o.durationMs) {
      const due = Math.floor(((performance.now() - t0) * o.ratePerSec) / 1000);
      const batch: StateChange[] = [];
      while (emitted < due) {
        const target = emitted % o.subscribers;
        batch.push(change(target));
        if (o.mode === 'per-aggregate') subs[target]!.expected++;
        else for (const s of subs) s.expected++;
        emitted++;
      }
      sink.emit(batch);
      await new Promise((r) => setTimeout(r, 5));
    }
    const emitMs = performance.now() - t0;
    // Deliveries still missing after the tail wait count as dropped.
    await waitFor(() => subs.every((s) => s.received >= s.expected || s.closed !== undefined), {
      timeoutMs: o.tailMs,
      intervalMs: 100,
      what: 'the tail of deliveries',
    }).catch(() => undefined);
    measuring = false;
    const closeCodes: Record<string, number> = {};
    for (const s of subs) if (s.closed !== undefined) closeCodes[String(s.closed)] = (closeCodes[String(s.closed)] ?? 0) + 1;
    const deliveries = subs.reduce((n, s) => n + Math.min(s.received, s.expected), 0);
    return {
      mode: o.mode,
      subscribers: o.subscribers,
      ratePerSec: o.ratePerSec,
      emitted,
      deliveries,
      expectedDeliveries: subs.reduce((n, s) => n + s.expected, 0),
      deliveriesPerSec: round((deliveries * 1000) / emitMs, 1),
      latencyMs: summarize(latencies),
      dropped: subs.filter((s) => s.closed !== undefined || s.received < s.expected).length,
      closeCodes,
    };
  } finally {
    await Promise.all(subs.map((s) => s.client.dispose()));
    await sink.stop();
  }
}

export const subscriptionsRow: BenchRow = {
  id: 7,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const subscribers = 1000;
    const ratePerSec = 500;
    const env = await benchEnv();
    const s = env.settings;
    let gw: GatewayUnderTest | undefined;
    try {
      gw = await startGatewayUnderTest(s, { cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row7` : undefined });
      if (!(await gw.operations()).subscription.has('publicationStateChanged'))
        return notBuilt(7, NAME, UNIT, TARGET, 'the gateway schema has no publicationStateChanged subscription');
      const common = {
        tailMs: ctx.quick ? 8_000 : 15_000,
        wsUrl: gw.process.wsUrl,
        authorization: await bearer(s, 'operator'),
        kafka: env.resources.kafka,
        topic: env.resources.topics.publicationState,
        subscribers,
        log: ctx.log,
      };
      const routed = await fanout({ ...common, mode: 'per-aggregate', ratePerSec, durationMs: ctx.quick ? 8_000 : 30_000 });
      // Broadcast: every subscriber takes every change. Measured at the same rate for a shorter time;
      // it is N times the deliveries and shows the gateway's fan-out ceiling on this machine.
      const broadcast = await fanout({
        ...common,
        mode: 'broadcast',
        ratePerSec: ctx.quick ? 10 : 20,
        durationMs: ctx.quick ? 4_000 : 10_000,
      });
      const met = routed.latencyMs.p99 <= 500 && routed.dropped === 0;
      return {
        id: 7,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: routed.latencyMs.p99,
        target: TARGET,
        met,
        details: { routed, broadcast },
        note:
          `per-aggregate: ${routed.deliveries}/${routed.expectedDeliveries} delivered, p50 ${routed.latencyMs.p50} ms, dropped ${routed.dropped}; ` +
          `broadcast at ${broadcast.ratePerSec}/s to ${subscribers}: ${broadcast.deliveriesPerSec} deliveries/s, p99 ${broadcast.latencyMs.p99} ms, dropped ${broadcast.dropped}`,
      };
    } finally {
      await gw?.stop().catch(() => undefined);
      await env.cleanup();
    }
  },
};
