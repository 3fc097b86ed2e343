// Operator-only erasure (docs/erasure.md): eraseStudent / eraseCustomer start one (or returns the running one for the
// same student), erasure(id) and erasures(first, after) show progress and the certificate. The
// caller's token subject is recorded as requestedBy; the reason is kept as the audit's why.
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { ErasureRecord } from '../../erasure/ledger/records';
import type { ErasureService } from '../../erasure/service';
import { decodeCursor, encodeCursor } from '../../shared/cursor';
import type { GatewayContext } from '../context';
import { AFTER } from '../reconciliation/paging';
import { requireService } from '../shared/services';
import { ErasureView } from './erasure.types';

const service = (ctx: GatewayContext): ErasureService => requireService(ctx, 'erasure');
const who = (ctx: GatewayContext) => ctx.auth.principal?.subject ?? 'unknown';

const isKey = (v: unknown): v is { t: number; i: string } => {
  const c = v as { t?: unknown; i?: unknown } | null;
  return typeof c === 'object' && c !== null && Number.isSafeInteger(c.t) && typeof c.i === 'string' && /^[0-9a-f-]{36}$/.test(c.i);
};

export function erasureView(r: ErasureRecord): ErasureView {
  return {
    id: r.id,
    cursor: encodeCursor({ t: r.requestedAt.getTime(), i: r.id }),
    kind: r.kind,
    domain: r.domain,
    status: r.status,
    subjectHash: r.subjectHash,
    reason: r.reason,
    requestedBy: r.requestedBy,
    requestedAt: r.requestedAt,
    deadlineAt: r.deadlineAt,
    completedAt: r.completedAt,
    aggregates: r.aggregateIds.length,
    stores: Object.entries(r.progress).map(([store, p]) => ({
      store,
      done: p.done,
      affected: p.affected,
      steps: p.steps,
      note: p.note ?? null,
      at: new Date(p.at),
    })),
    certificate: r.certificate && r.certificate.map((c) => ({ ...c, searched: [...c.searched], note: c.note ?? null })),
    findings: r.findings,
    failedAttempts: r.attempts,
    lastError: r.lastError,
  };
}

@Resolver()
export class ErasureResolver {
  @Authorized('operate')
  @Mutation(() => ErasureView, {
    description:
      "Erases a student's fitness results from every store (docs/erasure.md); returns the erasure to follow with erasure(id). " +
      'Asking again while one runs returns that one. At most ERASURES_PER_MINUTE start per minute (RATE_LIMITED).',
  })
  async eraseStudent(
    @Arg('userId', () => Int) userId: number,
    @Arg('reason', () => String, { description: 'Why (1-500 characters), kept in the audit record.' }) reason: string,
    @Ctx() ctx: GatewayContext,
  ): Promise<ErasureView> {
    const { record } = await service(ctx).erase({ kind: 'student', subjectId: String(userId), reason, requestedBy: who(ctx) });
    return erasureView(record);
  }

  @Authorized('operate')
  @Mutation(() => ErasureView, {
    description:
      "Erases a customer's identity from every store: its id becomes a keyed pseudonym on its orders, which keep their amounts " +
      '(docs/erasure.md); returns the erasure to follow with erasure(id). Asking again while one runs returns that one. ' +
      'At most ERASURES_PER_MINUTE start per minute (RATE_LIMITED).',
  })
  async eraseCustomer(
    @Arg('customerId', () => String) customerId: string,
    @Arg('reason', () => String, { description: 'Why (1-500 characters), kept in the audit record.' }) reason: string,
    @Ctx() ctx: GatewayContext,
  ): Promise<ErasureView> {
    const { record } = await service(ctx).erase({ kind: 'customer', subjectId: customerId, reason, requestedBy: who(ctx) });
    return erasureView(record);
  }

  @Authorized('operate')
  @Query(() => ErasureView, { nullable: true, description: 'One erasure with its progress and certificate; null when there is none.' })
  async erasure(@Arg('id', () => ID) id: string, @Ctx() ctx: GatewayContext): Promise<ErasureView | null> {
    const r = await service(ctx).erasure(id);
    return r ? erasureView(r) : null;
  }

  @Authorized('operate')
  @Query(() => [ErasureView], { description: 'Erasures, newest first (keyset-paginated by cursor).' })
  async erasures(
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, AFTER) after: string | null | undefined,
    @Ctx() ctx: GatewayContext,
  ): Promise<ErasureView[]> {
    const key = decodeCursor(after, isKey);
    const records = await service(ctx).erasures(first, key && { requestedAt: new Date(key.t), id: key.i });
    return records.map(erasureView);
  }
}
