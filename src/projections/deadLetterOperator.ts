// The projector's dead letters as an operator surface. Every message the mapping rejected is a row of
// projector_dead_letters (written by the projector in the same flush as its data). Operators list
// them (never their content) and replay chosen ones through the current mapping, for example after a
// mapping defect is fixed or a schemaVersion 2 rollout reached the projector: a message the mapping
// now accepts is inserted into its projection table (keeping its own version and eventId, so it can
// never replace a newer version) and marked REPLAYED; one it still rejects stays DEAD with its new
// reason. A message no mapping will ever accept (bytes that are not an event) is DISCARDED by an
// operator instead: it leaves the backlog and stops making its domain STALE, and the row stays as the
// record of who discarded it and when. The backlog (rows still DEAD) is a gauge read from ClickHouse
// at scrape time.
import type { Registry } from 'prom-client';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import { gauge } from '../metrics/registry';
import { domainModules } from '../domains/registry';
import { projectedDomains } from '../domains/projections';
import type { Clock } from '../shared/clock';
import type { ConsumedMessage, MessageMapper } from './mapMessage';
import type { ProjectedRow } from './rows';
import { noErasedAggregates, type ErasedAggregates } from '../domains/contract/erasure';
import { keyOfRow } from './erased/withoutErased';
import { guardedRows, subjectRewriter, withoutGuarded } from './erased/withPseudonyms';
import { insertDeadLetters, type StoredDeadLetter } from './sql/insertDeadLetters';
import { insertRows } from './sql/insertRows';
import {
  deadLetterBacklog,
  listDeadLetters,
  storedDeadLetters,
  type DeadLetterCursor,
  type DeadLetterFilter,
  type DeadLetterKey,
  type DeadLetterSummary,
} from './sql/readDeadLetters';

export interface ReplayedDeadLetter extends DeadLetterSummary {
  /** PROJECTED: the current mapping accepted it and the row is in the read model. REJECTED_AGAIN: still dead, with its new reason. */
  outcome: 'PROJECTED' | 'REJECTED_AGAIN';
}

export interface ProjectorDeadLetters {
  list(filter: DeadLetterFilter, first: number, after?: DeadLetterCursor): Promise<DeadLetterSummary[]>;
  /** Replays the chosen DEAD messages (by key, or the first `limit` matching a filter), oldest first. */
  replay(selection: DeadLetterFilter, limit: number, requestedBy: string): Promise<ReplayedDeadLetter[]>;
  /** Marks the chosen DEAD messages DISCARDED (never projected; kept as the record of the decision). */
  discard(keys: DeadLetterKey[], requestedBy: string): Promise<DeadLetterSummary[]>;
  backlog(): Promise<Map<string, number>>;
}

export interface ProjectorDeadLettersDeps {
  ch: ClickHouseClient;
  database: string;
  /** The projector's consumer group (whose dead letters these are). */
  consumer: string;
  clock: Clock;
  /** The current mapping: the projector's own unless a test substitutes one. */
  map: MessageMapper;
  registry?: Registry;
  /** The erasure guard (erased/erasedAggregatesCache.ts): a replay never writes an erased aggregate back. Default: nothing erased. */
  erased?: ErasedAggregates;
}

function messageOf(r: StoredDeadLetter): ConsumedMessage {
  const headers = JSON.parse(r.headers || '{}') as Record<string, string>;
  return {
    topic: r.sourceTopic,
    partition: r.sourcePartition,
    offset: r.sourceOffset,
    key: r.key ? Buffer.from(r.key, 'base64') : null,
    value: r.value ? Buffer.from(r.value, 'base64') : null,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  };
}

function summaryOf(r: StoredDeadLetter): DeadLetterSummary {
  return {
    domain: r.domain,
    sourceTopic: r.sourceTopic,
    sourcePartition: r.sourcePartition,
    sourceOffset: r.sourceOffset,
    reason: r.reason,
    detail: r.detail,
    eventId: r.eventId,
    aggregateId: r.aggregateId,
    deadAtMs: r.deadAtMs,
    status: r.status,
    replays: r.replays,
    lastReplayedAtMs: r.lastReplayedAtMs,
    lastReplayedBy: r.lastReplayedBy,
  };
}

export function projectorDeadLetters(d: ProjectorDeadLettersDeps): ProjectorDeadLetters {
  const erased = d.erased ?? noErasedAggregates;
  // Dead-letter rows of erased aggregates are not written again (their message is the student's data).
  // Nor of pseudonymised ones (the stored message names the customer).
  const notErased = (rows: StoredDeadLetter[]) => withoutGuarded(erased, rows, (r) => ({ domain: r.domain, aggregateId: r.aggregateId }));
  const backlog = () => deadLetterBacklog(d.ch, d.database, d.consumer);
  if (d.registry)
    gauge<'domain'>(d.registry, {
      name: 'tidemark_projector_dead_letter_backlog',
      help: 'Messages the projector dead-lettered and nobody has replayed yet, by domain (read from ClickHouse at scrape time).',
      labelNames: ['domain'],
      async collect() {
        const n = await backlog().catch(() => undefined);
        if (n) for (const { name: domain } of domainModules()) this.set({ domain }, n.get(domain) ?? 0);
      },
    });

  return {
    list: (filter, first, after) => listDeadLetters(d.ch, d.database, d.consumer, filter, first, after),
    backlog,
    async replay(selection, limit, requestedBy) {
      const rows = await storedDeadLetters(d.ch, d.database, d.consumer, { ...selection, statuses: ['DEAD'] }, limit);
      const now = d.clock.now().getTime();
      const projected: ProjectedRow[] = [];
      const updated: StoredDeadLetter[] = [];
      const out: ReplayedDeadLetter[] = [];
      for (const r of rows) {
        const mapped = d.map(messageOf(r), r.domain, now);
        const next = {
          ...r,
          replays: r.replays + 1,
          lastReplayedAtMs: now,
          lastReplayedBy: requestedBy,
          version: Math.max(now, r.version + 1),
        };
        if (mapped.kind === 'row') {
          projected.push(mapped.projected);
          updated.push({ ...next, status: 'REPLAYED' });
        } else if (mapped.kind === 'tombstone') {
          // A stored dead letter without a value (a tombstone dead-lettered before the projector skipped
          // them) has nothing to project and never will: replayed, as the projector now treats one.
          updated.push({ ...next, status: 'REPLAYED' });
        } else updated.push({ ...next, reason: mapped.deadLetter.reason, detail: mapped.deadLetter.detail });
        out.push({ ...summaryOf(updated[updated.length - 1]!), outcome: mapped.kind === 'dead' ? 'REJECTED_AGAIN' : 'PROJECTED' });
      }
      // The projection first: if marking the rows fails, a second replay inserts the same versions again (harmless).
      await Promise.all(
        projectedDomains().map(async ({ domain, table }) => {
          const keyOf = keyOfRow(table);
          const mine = projected.filter((p) => p.projection.table === table).map((p) => p.row);
          const rewrite = subjectRewriter(domain, table);
          await insertRows(d.ch, d.database, table, await guardedRows(erased, mine, (r) => ({ domain, aggregateId: keyOf(r) }), rewrite));
        }),
      );
      await insertDeadLetters(d.ch, d.database, await notErased(updated));
      return out;
    },
    async discard(keys, requestedBy) {
      const rows = await storedDeadLetters(d.ch, d.database, d.consumer, { keys, statuses: ['DEAD'] }, keys.length);
      const now = d.clock.now().getTime();
      const updated = rows.map((r) => ({
        ...r,
        status: 'DISCARDED' as const,
        lastReplayedAtMs: now,
        lastReplayedBy: requestedBy,
        version: Math.max(now, r.version + 1),
      }));
      await insertDeadLetters(d.ch, d.database, await notErased(updated));
      return updated.map(summaryOf);
    },
  };
}

export type { DeadLetterCursor, DeadLetterFilter, DeadLetterKey, DeadLetterSummary };
