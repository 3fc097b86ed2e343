// The erasure service the gateway calls: start an erasure (eraseStudent, eraseCustomer), read one,
// list them. Starting one checks everything before anything is written: the reason, the subject id by
// its domain's rule, the per-minute limit; then it collects the subject's aggregates from the source
// (so the erasure covers exactly what existed when it was asked for, and a student who comes back
// later is not erased by it) and records the request. The runner (src/erasure/runner.ts) does the rest.
import type { Knex } from 'knex';
import type { ErasureKind, SourceErasure } from '../domains/contract/erasure';
import type { Clock, IdGenerator } from '../shared/clock';
import { hasControlCharacters } from '../shared/controlCharacters';
import { TidemarkError, ValidationError } from '../shared/errors';
import { keyedHash } from '../shared/keyedHash';
import type { Logger } from '../shared/logger';
import type { ErasureRecord } from './ledger/records';
import { countRequestedSince, requestErasure } from './ledger/sql/requestErasure';
import { erasureById, erasurePage } from './ledger/sql/selectErasures';

export const MAX_REASON = 500;
const MAX_PAGE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The domain that holds a kind of subject, and its source store. */
export interface ErasableDomain {
  domain: string;
  kind: ErasureKind;
  mode: 'delete' | 'pseudonymise';
  source: SourceErasure;
}

export interface ErasureServiceDeps {
  pg: Knex;
  domains: readonly ErasableDomain[];
  key: Buffer;
  clock: Clock;
  ids: IdGenerator;
  deadlineHours: number;
  perMinute: number;
  logger: Logger;
}

export interface ErasureRequestInput {
  kind: ErasureKind;
  subjectId: string;
  reason: string;
  requestedBy: string;
}

export interface ErasureService {
  /** Starts an erasure, or returns the one already running for the same subject. */
  erase(input: ErasureRequestInput): Promise<{ record: ErasureRecord; created: boolean }>;
  erasure(id: string): Promise<ErasureRecord | undefined>;
  /** Newest first, keyset-paginated by the last record's (requestedAt, id). */
  erasures(first: number, before?: { requestedAt: Date; id: string }): Promise<ErasureRecord[]>;
}

export function reasonOf(reason: string): string {
  const r = reason.trim();
  if (r.length === 0 || reason.length > MAX_REASON || hasControlCharacters(reason))
    throw new ValidationError('reason', `reason must be 1 to ${MAX_REASON} characters without control characters`);
  return r;
}

export function erasureService(d: ErasureServiceDeps): ErasureService {
  return {
    async erase(input) {
      const target = d.domains.find((x) => x.kind === input.kind);
      if (!target) throw new ValidationError('kind', `no domain holds a ${input.kind}`);
      const reason = reasonOf(input.reason);
      const problem = target.source.checkSubject(input.subjectId);
      if (problem) throw new ValidationError('subjectId', problem);
      const now = d.clock.now();
      const subjectHash = keyedHash(d.key, input.kind, input.subjectId);
      const recent = await countRequestedSince(d.pg, new Date(now.getTime() - 60_000));
      if (recent >= d.perMinute)
        throw new TidemarkError('RATE_LIMITED', `at most ${d.perMinute} erasures start per minute (ERASURES_PER_MINUTE); try again later`, {
          retriable: true,
        });
      const aggregateIds = await target.source.collect(input.subjectId);
      const result = await requestErasure(d.pg, {
        id: d.ids.uuid(),
        kind: input.kind,
        domain: target.domain,
        mode: target.mode,
        subjectHash,
        subjectId: input.subjectId,
        reason,
        requestedBy: input.requestedBy,
        requestedAt: now,
        deadlineAt: new Date(now.getTime() + d.deadlineHours * 3600_000),
        aggregateIds,
      });
      // The audit line names the erasure and its keyed subject, never the person's id.
      d.logger.info(
        { erasureId: result.record.id, kind: input.kind, subjectHash, aggregates: aggregateIds.length, created: result.created },
        'erasure requested',
      );
      return result;
    },
    async erasure(id) {
      if (!UUID.test(id)) throw new ValidationError('id', 'id must be an erasure id');
      return erasureById(d.pg, id);
    },
    async erasures(first, before) {
      if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw new ValidationError('first', `first must be 1 to ${MAX_PAGE}`);
      return erasurePage(d.pg, first, before);
    },
  };
}
