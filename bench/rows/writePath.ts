// Row 1, fitness write path: GraphQL `recordFitnessResult` against the gateway child process (token
// check, validation, routing, one shard transaction: shard clock, dataId allocation, result row and
// outbox row) at a fixed concurrency, versus raw mysql2 transactions that insert the same result row
// alone (BEGIN, INSERT, COMMIT) at the same concurrency over pools of the same size per shard.
// Ours and raw alternate in rounds on the same private databases, so load from outside the run
// (other engineers' tests on this machine) hits both sides alike. A third, diagnostic side replays
// our transaction's statements with raw mysql2, and CPU-ms per write are recorded for both sides.
import mysql from 'mysql2/promise';
import { fitnessEvent } from '../../src/domains/fitness/events';
import { fitnessService } from '../../src/domains/fitness/service';
import { fitnessOutboxPublisher } from '../../src/app/wiring/fitness';
import { shardTargets } from '../../src/infra/mysql/shardTargets';
import { outboxInsertOf } from '../../src/publication/outbox/outboxRow';
import { benchEnv } from '../lib/benchEnv';
import { RAW_INSERT_RESULT, RECORD_MUTATION, rawResultRow, recordInput } from '../lib/fitnessWorkload';
import { startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import { GraphQLResponseError } from '../lib/graphqlHttp';
import { SideBySideCpu, withCpu } from '../lib/cpuTime';
import { closedLoop, type LoadReport } from '../lib/load';
import { notBuilt, type BenchRow, type RowResult } from '../lib/row';
import { perSecond, round, summarize, throughputRatio } from '../lib/stats';
import { discardStateChanges } from '../../src/publication/stateChanges/stateChange';
import { TEST_SERVICE } from '../../test/support/principals';

const NAME = 'write path: recordFitnessResult';
const UNIT = 'writes/s';
// No GraphQL write can beat the GraphQL floor, nor our own transaction issued raw; both in series give
// the honest limit: combined = 1 / (1/floor + 1/rawTransaction) writes/s, measured in the same run.
const TARGET = 'ratio to the combined limit of GraphQL floor and our transaction raw >= 0.7';

export function merge(reports: LoadReport[]): LoadReport {
  return reports.reduce(
    (a, r) => ({
      ok: a.ok + r.ok,
      failed: a.failed + r.failed,
      elapsedMs: a.elapsedMs + r.elapsedMs,
      latencies: a.latencies.concat(r.latencies),
      failures: [...new Set([...a.failures, ...r.failures])].slice(0, 5),
    }),
    {
      ok: 0,
      failed: 0,
      elapsedMs: 0,
      latencies: [],
      failures: [],
    } as LoadReport,
  );
}

export const writePathRow: BenchRow = {
  id: 1,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const concurrency = 32;
    const roundMs = ctx.quick ? 3_000 : 15_000;
    const rounds = 2;
    const env = await benchEnv();
    const s = env.settings;
    let gw: GatewayUnderTest | undefined;
    let gw2: GatewayUnderTest | undefined;
    const pools = shardTargets(s).map((t) =>
      mysql.createPool({
        host: t.host,
        port: t.port,
        user: t.user,
        password: t.password,
        database: t.database,
        connectionLimit: s.dbPoolMax,
        timezone: 'Z',
      }),
    );
    // Same session isolation as the product's pools (src/infra/mysql/fromMysql.ts).
    for (const p of pools) p.pool.on('connection', (c) => void c.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'));
    try {
      gw = await startGatewayUnderTest(s, { cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row1` : undefined });
      if (!(await gw.operations()).mutation.has('recordFitnessResult'))
        return notBuilt(1, NAME, UNIT, TARGET, 'the gateway schema has no recordFitnessResult mutation');
      const client = await gw.client('service', concurrency);
      let n = 0;
      const ours = () =>
        closedLoop({
          concurrency,
          durationMs: roundMs,
          op: async () => void (await client.request(RECORD_MUTATION, { input: recordInput(n++) })),
        });
      try {
        await client.request(RECORD_MUTATION, { input: recordInput(n++) });
      } catch (err) {
        if (err instanceof GraphQLResponseError && err.codes.includes('STORE_UNAVAILABLE'))
          return notBuilt(
            1,
            NAME,
            UNIT,
            TARGET,
            'recordFitnessResult is in the schema but the fitness service is not wired into the gateway',
          );
        throw err;
      }
      let rawSeq = 1;
      const raw = () =>
        closedLoop({
          concurrency,
          durationMs: roundMs,
          op: async () => {
            const k = rawSeq++;
            const row = rawResultRow(recordInput(k, 50_000_000), 900_000_000 + k * 100, pools.length, new Date());
            const conn = await pools[row.shard]!.getConnection();
            try {
              await conn.query('BEGIN');
              await conn.query(RAW_INSERT_RESULT, row.values);
              await conn.query('COMMIT');
            } finally {
              conn.release();
            }
          },
        });
      // Diagnostic third side: our transaction's exact statement sequence (as knex sends it for the
      // fitness service) issued with raw mysql2, to split the gap into "more SQL" and "the gateway".
      const txnSeq = { n: 1 };
      const rawSameTransaction = () =>
        closedLoop({
          concurrency,
          durationMs: roundMs,
          op: async () => {
            const k = txnSeq.n++;
            const input = recordInput(k, 80_000_000);
            const row = rawResultRow(input, 0, pools.length, new Date());
            const conn = await pools[row.shard]!.getConnection();
            try {
              await conn.query('BEGIN');
              // The clock and the id in one statement, as the service sends them on MariaDB (10.5+).
              const [[clock]] = (await conn.query(
                'INSERT INTO fitness_data_ids () VALUES () RETURNING local_seq, NOW(3) AS now',
              )) as unknown as [[{ local_seq: number; now: Date }]];
              const dataId = clock.local_seq * 100 + row.shard;
              row.values[0] = dataId;
              row.values[9] = row.values[10] = clock.now;
              await conn.query(RAW_INSERT_RESULT, row.values);
              const o = outboxInsertOf(
                fitnessEvent(
                  'FitnessResultRecorded',
                  {
                    ...input,
                    dataId,
                    version: 1,
                    isDeleted: false,
                    createdAt: clock.now,
                    updatedAt: clock.now,
                    shard: row.shard,
                  },
                  1,
                ),
                s.kafkaTopicPrefix,
              );
              await conn.query(
                'INSERT INTO outbox_events (event_id, domain, aggregate_id, version, topic, message_key, message_value, headers, status, attempts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                [o.event_id, o.domain, o.aggregate_id, o.version, o.topic, o.message_key, o.message_value, o.headers, o.status, o.attempts],
              );
              await conn.query('COMMIT');
            } finally {
              conn.release();
            }
          },
        });
      // Diagnostic fourth side: the fitness service itself (validation, routing, the knex transaction,
      // the outbox row) called in this process, without HTTP or GraphQL.
      const service = fitnessService({
        shards: env.resources.mysql,
        publisher: fitnessOutboxPublisher(env.resources, discardStateChanges),
      });
      const svcSeq = { n: 1 };
      const serviceAlone = () =>
        closedLoop({
          concurrency,
          durationMs: roundMs,
          op: async () => void (await service.record(recordInput(svcSeq.n++, 70_000_000), TEST_SERVICE)),
        });
      // Warm both sides (pools, JIT, InnoDB pages), then alternate measured rounds.
      await closedLoop({
        concurrency,
        durationMs: 1500,
        op: async () => void (await client.request(RECORD_MUTATION, { input: recordInput(n++) })),
      });
      const rawRounds: LoadReport[] = [];
      const ourRounds: LoadReport[] = [];
      const sameTxnRounds: LoadReport[] = [];
      const serviceRounds: LoadReport[] = [];
      // CPU spent per operation: the gateway child for ours, this process for the raw client side.
      const cpu = new SideBySideCpu();
      let serviceCpuMs = 0;
      for (let r = 0; r < rounds; r++) {
        ctx.log(`row 1: round ${r + 1}/${rounds} raw`);
        const rr = await withCpu(process.pid, raw);
        rawRounds.push(rr.result);
        cpu.raw(rr);
        ctx.log(`row 1: round ${r + 1}/${rounds} ours`);
        const oo = await withCpu(gw.process.pid, ours);
        ourRounds.push(oo.result);
        cpu.ours(oo);
        ctx.log(`row 1: round ${r + 1}/${rounds} our transaction as raw SQL`);
        sameTxnRounds.push(await rawSameTransaction());
        ctx.log(`row 1: round ${r + 1}/${rounds} the fitness service in-process`);
        const sv = await withCpu(process.pid, serviceAlone);
        serviceRounds.push(sv.result);
        serviceCpuMs += sv.cpuMs;
      }
      // The floor of any GraphQL request on this gateway: `{ __typename }` (HTTP, token check, parse,
      // validate, cost, execute nothing, respond) at the same concurrency. When even this is below
      // 0.7 of the ceiling, no write behind GraphQL can reach the target on this machine.
      ctx.log('row 1: GraphQL floor ({ __typename })');
      const floor = await withCpu(gw.process.pid, () =>
        closedLoop({ concurrency, durationMs: roundMs, op: async () => void (await client.request('{ __typename }')) }),
      );
      // Scale-out check: gateways are stateless, so a second gateway process (requests alternate
      // between the two) shows whether one gateway's event loop is what limits the write path.
      ctx.log('row 1: ours with 2 gateway processes');
      gw2 = await startGatewayUnderTest(s, { name: 'gateway-2' });
      const client2 = await gw2.client('service', concurrency);
      const twoGateways = await closedLoop({
        concurrency,
        durationMs: roundMs,
        op: async (w) => void (await (w % 2 ? client2 : client).request(RECORD_MUTATION, { input: recordInput(n++) })),
      });
      const o = merge(ourRounds);
      const c = merge(rawRounds);
      const oursPerSec = perSecond(o.ok, o.elapsedMs);
      const ceiling = perSecond(c.ok, c.elapsedMs);
      const ratio = throughputRatio(oursPerSec, ceiling);
      const floorPerSec = perSecond(floor.result.ok, floor.result.elapsedMs);
      const t0 = merge(sameTxnRounds);
      const rawTxnPerSec = perSecond(t0.ok, t0.elapsedMs);
      const combinedLimit = floorPerSec > 0 && rawTxnPerSec > 0 ? round(1 / (1 / floorPerSec + 1 / rawTxnPerSec), 1) : 0;
      const ratioToCombinedLimit = combinedLimit > 0 ? throughputRatio(oursPerSec, combinedLimit) : 0;
      return {
        id: 1,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: oursPerSec,
        ceiling,
        ratio,
        target: TARGET,
        met: ratioToCombinedLimit >= 0.7,
        details: {
          combinedLimit,
          ratioToCombinedLimit,
          concurrency,
          rounds,
          roundMs,
          ours: { ok: o.ok, failed: o.failed, latencyMs: summarize(o.latencies), failures: o.failures },
          raw: { ok: c.ok, failed: c.failed, latencyMs: summarize(c.latencies), failures: c.failures },
          ourTransactionAsRawSql: (() => {
            const t = merge(sameTxnRounds);
            const perSec = perSecond(t.ok, t.elapsedMs);
            return {
              writesPerSec: perSec,
              ratioToCeiling: throughputRatio(perSec, ceiling),
              latencyMs: summarize(t.latencies),
              failed: t.failed,
            };
          })(),
          serviceInProcess: (() => {
            const t = merge(serviceRounds);
            const perSec = perSecond(t.ok, t.elapsedMs);
            return {
              writesPerSec: perSec,
              ratioToCeiling: throughputRatio(perSec, ceiling),
              cpuMsPerWrite: round(serviceCpuMs / Math.max(t.ok, 1), 3),
              failed: t.failed,
            };
          })(),
          graphqlFloor: (() => {
            const perSec = perSecond(floor.result.ok, floor.result.elapsedMs);
            return {
              requestsPerSec: perSec,
              ratioToCeiling: throughputRatio(perSec, ceiling),
              gatewayCpuMsPerRequest: round(floor.cpuMs / Math.max(floor.result.ok, 1), 3),
            };
          })(),
          twoGatewayProcesses: {
            writesPerSec: perSecond(twoGateways.ok, twoGateways.elapsedMs),
            ratioToCeiling: throughputRatio(perSecond(twoGateways.ok, twoGateways.elapsedMs), ceiling),
            failed: twoGateways.failed,
          },
          cpuMsPerOp: cpu.perOp(o.ok, c.ok),
          perRound: ourRounds.map((r, i) => ({
            ours: perSecond(r.ok, r.elapsedMs),
            raw: perSecond(rawRounds[i]!.ok, rawRounds[i]!.elapsedMs),
          })),
          shards: pools.length,
          poolPerShard: s.dbPoolMax,
        },
        note: [
          `GraphQL floor ({ __typename }) ${floorPerSec}/s = ${throughputRatio(floorPerSec, ceiling)} of the ceiling`,
          `combined limit (floor and our transaction raw in series) ${combinedLimit}/s; ours = ${ratioToCombinedLimit} of it`,
          o.failed ? `${o.failed} of our writes failed: ${o.failures.join('; ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      };
    } finally {
      await gw?.stop().catch(() => undefined);
      await gw2?.stop().catch(() => undefined);
      await Promise.all(pools.map((p) => p.end()));
      await env.cleanup();
    }
  },
};
