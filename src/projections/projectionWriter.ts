// The projector's FlushSink: writes one flush to its stores. Dead letters (one Kafka send and one
// insert into projector_dead_letters, the operator's list), expired offset ranges and the table
// inserts (one per table) go first, in parallel; the checkpoint insert goes last, so a checkpoint is
// only ever written for what ClickHouse and the dead-letter topic acknowledged, and only while the store
// still holds the partition's previous checkpoint (insertCheckpoints.ts). Any failure fails
// the whole flush and FlushBuffer repeats it; repeating is harmless (rows collapse by version, a
// dead letter may be sent twice). Rows and dead letters of erased aggregates are dropped first
// (erased/withoutErased.ts): an event of an erased student still in flight is never written back; rows
// of a pseudonymised customer's orders are written with the pseudonym, their dead letters not at all
// (erased/withPseudonyms.ts).
import type { Producer } from 'kafkajs';
import { noErasedAggregates, type ErasedAggregates } from '../domains/contract/erasure';
import { projectedDomains } from '../domains/projections';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import type { Clock } from '../shared/clock';
import { SpanKind, withSpan } from '../shared/tracing';
import { identityOf, toDeadLetterMessage } from './deadLetters';
import { keyOfRow } from './erased/withoutErased';
import { guardedRows, subjectRewriter, withoutGuarded } from './erased/withPseudonyms';
import type { FlushBatch, FlushSink } from './flushBuffer';
import { insertCheckpoints } from './sql/insertCheckpoints';
import { insertDeadLetters, storedOf } from './sql/insertDeadLetters';
import { insertExpiredOffsets } from './sql/insertExpiredOffsets';
import { insertRows } from './sql/insertRows';
import type { ResumeGuard } from './resume/resumeGuard';

export interface ProjectionWriterDeps {
  clickhouse: ClickHouseClient;
  database: string;
  /** Connected producer for the dead-letter topic (acks=all). */
  producer: Producer;
  deadLetterTopic: string;
  consumer: string;
  clock: Clock;
  /** The resume guard's side of a checkpoint: what the store must still hold, and that one was written. */
  checkpoints?: Pick<ResumeGuard, 'expectedStored' | 'wrote'>;
  /** The erasure guard (the real one: projections/erased/erasedAggregatesCache.ts); default: nothing erased. */
  erased?: ErasedAggregates;
}

export function fromProjectionWriter(d: ProjectionWriterDeps): FlushSink {
  const erased = d.erased ?? noErasedAggregates;
  const tables = projectedDomains().map((p) => ({
    domain: p.domain,
    table: p.table,
    keyOf: keyOfRow(p.table),
    rewrite: subjectRewriter(p.domain, p.table),
  }));
  return {
    write(batch: FlushBatch) {
      const insert = (table: string, rows: number, run: () => Promise<unknown>) =>
        withSpan(
          'clickhouse.insert',
          { kind: SpanKind.CLIENT, attributes: { 'db.system': 'clickhouse', 'db.collection.name': table, 'tidemark.rows': rows } },
          run,
        );
      return withSpan('projector.flush', { attributes: { 'tidemark.messages': batch.messages } }, async () => {
        const at = d.clock.now().getTime();
        const deadLetters = await withoutGuarded(erased, batch.deadLetters, (x) => ({
          domain: x.domain,
          aggregateId: identityOf(x.value).aggregateId,
        }));
        const rowsOf = new Map(
          await Promise.all(
            tables.map(
              async ({ domain, table, keyOf, rewrite }) =>
                [
                  table.name,
                  await guardedRows(erased, batch.rows.get(table.name) ?? [], (r) => ({ domain, aggregateId: keyOf(r) }), rewrite),
                ] as const,
            ),
          ),
        );
        await Promise.all([
          deadLetters.length
            ? d.producer.send({
                topic: d.deadLetterTopic,
                acks: -1,
                messages: deadLetters.map((x) => toDeadLetterMessage(x, d.consumer)),
              })
            : undefined,
          insertDeadLetters(
            d.clickhouse,
            d.database,
            deadLetters.map((x) => storedOf(d.consumer, x, at)),
          ),
          insertExpiredOffsets(
            d.clickhouse,
            d.database,
            d.consumer,
            batch.expired.map((r) => ({ ...r, status: 'OPEN', resolvedAtMs: 0, note: '', version: r.detectedAtMs })),
          ),
          ...tables.map(({ table }) => {
            const rows = rowsOf.get(table.name) ?? [];
            return insert(table.name, rows.length, () => insertRows(d.clickhouse, d.database, table, rows));
          }),
        ]);
        const guard = d.checkpoints;
        const writes = batch.checkpoints.map((c) => ({ ...c, expectStored: guard?.expectedStored(c.topic, c.partition) ?? 0n }));
        await insertCheckpoints(d.clickhouse, d.database, d.consumer, writes, d.clock.now().getTime());
        for (const c of writes) guard?.wrote(c.topic, c.partition, c.nextOffset);
      });
    },
  };
}
