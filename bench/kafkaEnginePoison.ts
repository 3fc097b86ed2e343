// What ClickHouse's Kafka engine + materialized view (bench row 8's setup, bench/lib/clickhouseKafkaEngine.ts)
// does with a bad message, next to what our projector's mapping does with the same bytes. For each
// case a fresh one-partition topic gets [valid, bad, valid]; the engine consumes it into a fitness_results
// of our migration for `WAIT_MS`, then the script prints the rows written and the group's committed
// offset, and our mapMessage's verdict per message (row, or dead letter with its reason). Measures and
// prints; asserts nothing. Run: npx tsx bench/kafkaEnginePoison.ts (uses the local stack; cleans up).
import { ch002FitnessResults } from '../migrations/clickhouse/002_fitness_results';
import { loadSettings } from '../src/config/settings';
import { fromClickHouse } from '../src/infra/clickhouse/fromClickHouse';
import { clickhouseLayout, dropDatabaseStatement } from '../src/infra/clickhouse/layout';
import { ident } from '../src/infra/clickhouse/literal';
import { fromKafka } from '../src/infra/kafka/fromKafka';
import { migrateClickHouse } from '../src/infra/migrate';
import { mapMessage } from '../src/projections/mapMessage';
import { toKafkaRecord, type KafkaRecord } from '../src/publication/event';
import { fitnessEvent } from '../test/support/projectionEvents';
import { uniqueSuffix } from '../test/support/testEnv';
import { fitnessViewSql, kafkaEngineTableSql } from './lib/clickhouseKafkaEngine';
import { createTopic, deleteGroups, startGroupAtBeginning } from './lib/kafkaUtil';

const WAIT_MS = 8000;

const valid = (dataId: number, result = '1.000'): KafkaRecord =>
  toKafkaRecord(fitnessEvent({ dataId, detectId: 1, userId: 2, projectId: 3, schoolId: 4, grade: 5, result, version: 1 }));

function schemaVersion2(): KafkaRecord {
  const r = valid(2);
  return { ...r, value: r.value.replace('"schemaVersion":1', '"schemaVersion":2') };
}

const CASES: { name: string; bad: KafkaRecord }[] = [
  { name: 'result with 4 fraction digits ("1.0005")', bad: valid(2, '1.0005') },
  { name: 'result not a number ("abc")', bad: valid(2, 'abc') },
  { name: 'schemaVersion 2', bad: schemaVersion2() },
  { name: 'not JSON, holding a tab', bad: { key: '2', value: 'not\tjson', headers: {} } },
];

async function main(): Promise<void> {
  const s = loadSettings({ TIDEMARK_ENV: 'test' });
  const ch = fromClickHouse(s, { database: null });
  const kafka = fromKafka(s);
  const [version] = await (await ch.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>();
  console.log(`ClickHouse ${version!.v} Kafka engine, ${WAIT_MS / 1000} s per case; messages [valid 1, bad 2, valid 3]\n`);
  for (const c of CASES) {
    const id = uniqueSuffix();
    const db = `tidemark_t_${id}_poison`;
    const topic = `tidemark-t-${id}.poison`;
    const group = `${topic}.clickhouse`;
    const messages = [valid(1), c.bad, valid(3)];
    try {
      await createTopic(kafka, topic, 1);
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic, acks: -1, messages });
      await producer.disconnect();
      await migrateClickHouse(ch, db, clickhouseLayout(s), [ch002FitnessResults]);
      await startGroupAtBeginning(kafka, group, topic, 1);
      await ch.command({ query: kafkaEngineTableSql({ database: db, table: 'k', brokers: s.kafkaBrokers, topic, group, consumers: 1 }) });
      // 18.16 has no _partition/_offset virtual columns (bench row 8 falls back the same way).
      await ch.command({ query: fitnessViewSql({ database: db, view: 'v', source: 'k', target: 'fitness_results', positions: false }) });
      await new Promise((r) => setTimeout(r, WAIT_MS));
      await ch.command({ query: `DROP TABLE ${ident(db)}.v` });
      await ch.command({ query: `DROP TABLE ${ident(db)}.k` });
      const rows = await (
        await ch.query({
          query: `SELECT data_id, toString(result) AS result, version FROM ${ident(db)}.fitness_results ORDER BY data_id`,
          format: 'JSONEachRow',
        })
      ).json<{ data_id: string; result: string; version: string }>();
      const admin = kafka.admin();
      await admin.connect();
      const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      await admin.disconnect();
      const ours = messages.map((m, offset) => {
        const mapped = mapMessage(
          { topic, partition: 0, offset: String(offset), key: Buffer.from(m.key), value: Buffer.from(m.value) },
          'fitness',
          Date.now(),
        );
        return mapped.kind === 'dead' ? `dead letter ${mapped.deadLetter.reason}` : mapped.kind;
      });
      console.log(`${c.name}:`);
      console.log(
        `  engine: rows ${JSON.stringify(rows.map((r) => `${r.data_id}=${r.result}`))}, committed offset ${committed?.partitions[0]?.offset}`,
      );
      console.log(`  ours:   ${ours.join(', ')}\n`);
    } finally {
      await ch.command({ query: dropDatabaseStatement(clickhouseLayout(s), db) }).catch(() => undefined);
      await deleteGroups(kafka, [group]);
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  }
  await ch.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
