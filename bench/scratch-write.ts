import 'reflect-metadata';
import mysql from 'mysql2/promise';
import { benchEnv } from './lib/benchEnv';
import { closedLoop } from './lib/load';
import { recordInput, RAW_INSERT_RESULT, rawResultRow } from './lib/fitnessWorkload';
import { fitnessOutboxPublisher } from '../src/domains/fitness/wiring';
import { fitnessService } from '../src/domains/fitness/service';
import { perSecond, summarize } from './lib/stats';
import { outboxInsertOf } from '../src/publication/outbox/outboxRow';
import { fitnessEvent } from '../src/domains/fitness/events';

async function main() {
  const env = await benchEnv();
  const s = env.settings;
  try {
    const svc = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources) });
    let n = 0;
    let qc = 0;
    for (const sh of env.resources.mysql.shards) sh.db.on('query', () => qc++);
    await svc.record(recordInput(n++));
    console.log('queries per record', qc);
    const r = await closedLoop({ concurrency: 32, durationMs: 5000, op: async () => void (await svc.record(recordInput(n++))) });
    console.log('service in-process', perSecond(r.ok, r.elapsedMs), summarize(r.latencies).p50, r.failures);
    const pools = s.fitnessShardDatabases.map((database) => mysql.createPool({ host: s.mysqlHost, port: s.mysqlPort, user: s.mysqlUser, password: s.mysqlPassword, database, connectionLimit: 16, timezone: 'Z' }));
    let k = 1;
    const raw = await closedLoop({ concurrency: 32, durationMs: 5000, op: async () => {
      const row = rawResultRow(recordInput(k++, 50_000_000), 900_000_000 + k * 100, 2, new Date());
      const c = await pools[row.shard]!.getConnection();
      try { await c.query('BEGIN'); await c.query(RAW_INSERT_RESULT, row.values); await c.query('COMMIT'); } finally { c.release(); }
    }});
    console.log('raw', perSecond(raw.ok, raw.elapsedMs), summarize(raw.latencies).p50);
    const raw2 = await closedLoop({ concurrency: 32, durationMs: 5000, op: async () => {
      const kk = k++;
      const input = recordInput(kk, 60_000_000);
      const row = rawResultRow(input, 0, 2, new Date());
      const c = await pools[row.shard]!.getConnection();
      try {
        await c.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
        await c.query('BEGIN');
        await c.query('SELECT NOW(3) AS now');
        const [ins] = await c.query('INSERT INTO fitness_data_ids () VALUES ()') as any;
        const dataId = ins.insertId * 100 + row.shard;
        row.values[0] = dataId;
        await c.query(RAW_INSERT_RESULT, row.values);
        const ev = fitnessEvent('FitnessResultRecorded', { dataId, ...input, version: 1, isDeleted: false, createdAt: new Date(), updatedAt: new Date(), shard: row.shard });
        const o = outboxInsertOf(ev, 'x');
        await c.query('INSERT INTO outbox_events (event_id, domain, aggregate_id, version, topic, message_key, message_value, headers, status, attempts) VALUES (?,?,?,?,?,?,?,?,?,?)', [o.event_id, o.domain, o.aggregate_id, o.version, o.topic, o.message_key, o.message_value, o.headers, o.status, o.attempts]);
        await c.query('COMMIT');
      } finally { c.release(); }
    }});
    console.log('raw-full-txn', perSecond(raw2.ok, raw2.elapsedMs), summarize(raw2.latencies).p50, raw2.failures);
    await Promise.all(pools.map((p) => p.end()));
  } finally { await env.cleanup(); }
  process.exit(0);
}
main();
