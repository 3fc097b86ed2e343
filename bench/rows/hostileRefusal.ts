// Row 11, hostile refusal: how long a 1 MB repeated-field GraphQL document takes to be refused
// (anonymous: 401 before its body is read; authenticated: 413 from its Content-Length), and what it
// does to everyone else: /healthz is polled throughout and its latency compared with /healthz polled
// alone in the same run. The bounds are absolute: refusal and /healthz beside it p99 < 200 ms
// (this bench client uploads the megabyte on the same 2 cores, so /healthz alone is the reference).
import { performance } from 'node:perf_hooks';
import { benchEnv } from '../lib/benchEnv';
import { bearer, startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import type { BenchRow, RowResult } from '../lib/row';
import { latencyRatio, summarize } from '../lib/stats';

const NAME = 'hostile refusal: 1 MB document';
const UNIT = 'ms p99';
const TARGET = 'refusal p99 < 200 ms; /healthz p99 beside it < 200 ms';
const MB = 1024 * 1024;
const document = JSON.stringify({ query: `{ health { ${'status '.repeat(Math.ceil((MB - 64) / 7))}} }` });

async function timed(op: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await op();
  return performance.now() - t;
}

export const hostileRefusalRow: BenchRow = {
  id: 11,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const rounds = ctx.quick ? 20 : 100;
    const env = await benchEnv();
    let gw: GatewayUnderTest | undefined;
    try {
      gw = await startGatewayUnderTest(env.settings);
      const url = gw.process.url;
      const healthz = url.replace(/\/graphql$/, '/healthz');
      const authorization = await bearer(env.settings, 'operator');
      const healthzOnce = () => timed(async () => (await fetch(healthz)).text());
      const alone: number[] = [];
      for (let i = 0; i < rounds * 2; i++) alone.push(await healthzOnce());
      const refusal: Record<string, number[]> = { anonymous: [], authenticated: [] };
      const beside: number[] = [];
      const statuses = new Set<number>();
      for (const who of ['anonymous', 'authenticated'] as const) {
        const headers = { 'content-type': 'application/json', ...(who === 'authenticated' ? { authorization } : {}) };
        for (let i = 0; i < rounds; i++) {
          let polling = true;
          const poller = (async () => {
            while (polling) beside.push(await healthzOnce());
          })();
          refusal[who]!.push(
            await timed(async () => {
              const res = await fetch(url, { method: 'POST', headers, body: document });
              statuses.add(res.status);
              await res.text();
            }),
          );
          polling = false;
          await poller;
        }
      }
      const anon = summarize(refusal.anonymous!);
      const auth = summarize(refusal.authenticated!);
      const worst = Math.max(anon.p99, auth.p99);
      const base = summarize(alone);
      const under = summarize(beside);
      return {
        id: 11,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: worst,
        ceiling: 200,
        ratio: latencyRatio(worst, 200),
        target: TARGET,
        met: worst < 200 && under.p99 < 200 && [...statuses].every((s) => s === 401 || s === 413),
        details: {
          anonymousMs: anon,
          authenticatedMs: auth,
          healthzAloneMs: base,
          healthzUnderAttackMs: under,
          statuses: [...statuses],
          rounds,
        },
        note:
          `refused in p99 ${anon.p99} ms (anonymous, 401) and ${auth.p99} ms (authenticated, 413); ` +
          `/healthz p99 ${under.p99} ms beside the attack, ${base.p99} ms alone`,
      };
    } finally {
      await gw?.stop().catch(() => undefined);
      await env.cleanup();
    }
  },
};
