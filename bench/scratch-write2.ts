import 'reflect-metadata';
import { benchEnv } from './lib/benchEnv';
import { closedLoop } from './lib/load';
import { recordInput, RAW_INSERT_RESULT, rawResultRow } from './lib/fitnessWorkload';
import { fitnessOutboxPublisher } from '../src/domains/fitness/wiring';
import { fitnessService } from '../src/domains/fitness/service';
import { perSecond, summarize } from './lib/stats';

async function main() {
  const env = await benchEnv();
  try {
    const svc = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources) });
    let n = 0;
    const mode = process.argv[2];
    for (let i = 0; i < 2; i++) {
      const r = await closedLoop({ concurrency: 32, durationMs: 4000, op: async () => void (await svc.record(recordInput(n++))) });
      console.log('service', perSecond(r.ok, r.elapsedMs), summarize(r.latencies).p50, r.failures);
      let k = 1;
      const r2 = await closedLoop({ concurrency: 32, durationMs: 4000, op: async () => {
        const row = rawResultRow(recordInput(k++, 50_000_000 + i * 1e6), 900_000_000 + k * 100 + i * 1e8, 2, new Date());
        const db = env.resources.mysql.shard(row.shard).db;
        await db.transaction(async (trx) => { await trx.raw(RAW_INSERT_RESULT, row.values as any); }, mode === 'rc' ? { isolationLevel: 'read committed' } : undefined);
      }});
      console.log('knex-raw-insert', perSecond(r2.ok, r2.elapsedMs), summarize(r2.latencies).p50, r2.failures);
    }
  } finally { await env.cleanup(); }
  process.exit(0);
}
main();
