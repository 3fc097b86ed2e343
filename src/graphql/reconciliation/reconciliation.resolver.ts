// Operator-only reconciliation and repair: reconcile(scope, level), discrepancies(filter),
// repair(discrepancyIds), rebuildProjection(domain, scope), repairs(filter), plus the explicit,
// audited removal of unexpected rows and the lists of rebuilds and runs (keyset-paginated). Every operation is @Authorized('operate');
// the caller's token subject is recorded as requestedBy on runs and repairs.
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Domain } from '../../publication/event';
import type { DiscrepancyRecord, RebuildRecord, RepairRecord, RunRecord } from '../../reconciliation/ledger/records';
import type { ReconcileLevel } from '../../reconciliation/model';
import type { SourceRevision } from '../../domains/contract/sourceState';
import { AFTER, afterOf, idCursor, page } from './paging';
import { scopeKey } from '../../reconciliation/scope';
import { ReconciliationScopeInput, toScope } from './scopeInput';
import { oneAtATime } from './oneAtATime';
import type { ReconciliationService } from '../../reconciliation/service';
import { ValidationError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { DOMAIN_VALUES } from '../shared/enums';
import {
  DiscrepancyFilterInput,
  DiscrepancyView,
  ProjectionRebuildView,
  ReconcilePayload,
  ReconciliationRunView,
  RepairFilterInput,
  RepairView,
  type SourceRevisionView,
} from './reconciliation.types';
import { LevelEnum } from './reconciliation.enums';
import { text } from '../shared/arguments';
import { requireService } from '../shared/services';

export const MAX_REPAIR_BATCH = 500;

export function service(ctx: GatewayContext): ReconciliationService {
  return requireService(ctx, 'reconciliation');
}

const who = (ctx: GatewayContext) => ctx.auth.principal?.subject ?? 'unknown';

function ids(field: string, raw: string[]): number[] {
  if (raw.length === 0 || raw.length > MAX_REPAIR_BATCH)
    throw new ValidationError(field, `${field} must hold 1 to ${MAX_REPAIR_BATCH} ids`);
  return [
    ...new Set(
      raw.map((r) => {
        if (!/^[1-9][0-9]{0,15}$/.test(r)) throw new ValidationError(field, `${field} must be ids of discrepancies`);
        return Number(r);
      }),
    ),
  ];
}

function optionalId(field: string, raw: string | null | undefined): number | undefined {
  if (raw == null) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw new ValidationError(field, `${field} must be an id`);
  return Number(raw);
}

const revision = (r: SourceRevision | null): SourceRevisionView | null =>
  r && { aggregates: r.aggregates, live: r.live, versionSum: r.versionSum, maxCommitAt: r.maxCommitMs ? new Date(r.maxCommitMs) : null };

export const runView = (r: RunRecord): ReconciliationRunView => ({
  ...r,
  id: String(r.id),
  cursor: idCursor(r.id),
  revisionBefore: revision(r.revisionBefore),
  revisionAfter: revision(r.revisionAfter),
});
export const discrepancyView = (d: DiscrepancyRecord): DiscrepancyView => ({ ...d, id: String(d.id), cursor: idCursor(d.id) });
export const repairView = (r: RepairRecord): RepairView => ({
  ...r,
  id: String(r.id),
  cursor: idCursor(r.id),
  discrepancyId: r.discrepancyId === null ? null : String(r.discrepancyId),
  rebuildId: r.rebuildId === null ? null : String(r.rebuildId),
});
export const rebuildView = (r: RebuildRecord): ProjectionRebuildView => ({
  ...r,
  id: String(r.id),
  cursor: idCursor(r.id),
  validation: r.validation ? JSON.stringify(r.validation) : null,
});

@Resolver()
export class ReconciliationResolver {
  @Authorized('operate')
  @Mutation(() => ReconcilePayload, {
    description:
      'Operator only. Compares one scope of the authoritative stores with its projection at a level; stores ' +
      'what it finds. Aggregates edited during the run are judged at one source snapshot and counted as ' +
      'excluded when they changed after it or are in flight. CATCHING_UP / SCOPE_CHANGED mean normal delay.',
  })
  async reconcile(
    @Ctx() ctx: GatewayContext,
    @Arg('scope', () => ReconciliationScopeInput) scope: ReconciliationScopeInput,
    @Arg('level', () => LevelEnum) level: ReconcileLevel,
    @Arg('escalate', () => Boolean, { defaultValue: true, description: 'When logical counts differ, go on to IDS to classify.' })
    escalate: boolean,
  ): Promise<ReconcilePayload> {
    const s = toScope(scope);
    const r = await oneAtATime('reconciliation', scopeKey(s), () => service(ctx).reconcile(s, level, { escalate, requestedBy: who(ctx) }));
    return { run: runView(r.run), discrepancies: r.discrepancies.map(discrepancyView) };
  }

  @Authorized('operate')
  @Query(() => [DiscrepancyView], { description: 'Operator only. Stored discrepancies, newest first.' })
  async discrepancies(
    @Ctx() ctx: GatewayContext,
    @Arg('filter', () => DiscrepancyFilterInput, { nullable: true }) filter: DiscrepancyFilterInput | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, AFTER) afterCursor?: string | null,
  ): Promise<DiscrepancyView[]> {
    const rows = await service(ctx).discrepancies({
      first: page(first),
      ...afterOf(afterCursor),
      ...(filter?.domain ? { domain: filter.domain } : {}),
      ...(filter?.kinds?.length ? { kinds: filter.kinds } : {}),
      ...(filter?.statuses?.length ? { statuses: filter.statuses } : {}),
      ...(filter?.scopeKey != null ? { scopeKey: text('scopeKey', filter.scopeKey, 200) } : {}),
      ...(filter?.aggregateId != null ? { aggregateId: text('aggregateId', filter.aggregateId, 128) } : {}),
    });
    return rows.map(discrepancyView);
  }

  @Authorized('operate')
  @Mutation(() => [RepairView], {
    description:
      'Operator only. Repairs each discrepancy by its kind (replay, tombstone, rebuild; unexpected rows are refused: ' +
      'see removeUnexpectedRows), rate-limited, and waits briefly for verification.',
  })
  async repair(@Ctx() ctx: GatewayContext, @Arg('discrepancyIds', () => [ID]) discrepancyIds: string[]): Promise<RepairView[]> {
    return (await service(ctx).repair(ids('discrepancyIds', discrepancyIds), who(ctx))).map(repairView);
  }

  @Authorized('operate')
  @Mutation(() => [RepairView], {
    description:
      'Operator only. The explicit, audited removal of projection rows that have no source (UNEXPECTED_ROW), with a reason; verified by re-comparison.',
  })
  async removeUnexpectedRows(
    @Ctx() ctx: GatewayContext,
    @Arg('discrepancyIds', () => [ID]) discrepancyIds: string[],
    @Arg('reason', () => String) reason: string,
  ): Promise<RepairView[]> {
    return (
      await service(ctx).removeUnexpectedRows(ids('discrepancyIds', discrepancyIds), text('reason', reason, 250) ?? '', who(ctx))
    ).map(repairView);
  }

  @Authorized('operate')
  @Mutation(() => ProjectionRebuildView, {
    description:
      'Operator only. Rebuilds one scope of a projection from the authoritative state into a shadow ' +
      'table, validates it by digests, switches readers, and verifies.',
  })
  async rebuildProjection(
    @Ctx() ctx: GatewayContext,
    @Arg('domain', () => DOMAIN_VALUES) domain: Domain,
    @Arg('scope', () => ReconciliationScopeInput) scope: ReconciliationScopeInput,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
  ): Promise<ProjectionRebuildView> {
    const s = toScope(scope);
    if (s.domain !== domain) throw new ValidationError('scope', `the scope is not a ${domain} scope`);
    const why = text('reason', reason, 250) ?? 'operator request';
    return rebuildView(await oneAtATime('rebuild', scopeKey(s), () => service(ctx).rebuild(s, who(ctx), why)));
  }

  @Authorized('operate')
  @Query(() => [RepairView], { description: 'Operator only. The repair audit trail, newest first.' })
  async repairs(
    @Ctx() ctx: GatewayContext,
    @Arg('filter', () => RepairFilterInput, { nullable: true }) filter: RepairFilterInput | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, AFTER) afterCursor?: string | null,
  ): Promise<RepairView[]> {
    const discrepancyId = optionalId('discrepancyId', filter?.discrepancyId);
    const rebuildId = optionalId('rebuildId', filter?.rebuildId);
    const rows = await service(ctx).repairs({
      first: page(first),
      ...afterOf(afterCursor),
      ...(filter?.domain ? { domain: filter.domain } : {}),
      ...(filter?.actions?.length ? { actions: filter.actions } : {}),
      ...(filter?.verifications?.length ? { verifications: filter.verifications } : {}),
      ...(discrepancyId !== undefined ? { discrepancyId } : {}),
      ...(rebuildId !== undefined ? { rebuildId } : {}),
    });
    return rows.map(repairView);
  }

  @Authorized('operate')
  @Query(() => [ProjectionRebuildView], { description: 'Operator only. Projection rebuilds, newest first.' })
  async projectionRebuilds(
    @Ctx() ctx: GatewayContext,
    @Arg('domain', () => DOMAIN_VALUES, { nullable: true }) domain: Domain | null,
    @Arg('first', () => Int, { defaultValue: 20 }) first: number,
    @Arg('after', () => String, AFTER) afterCursor?: string | null,
  ): Promise<ProjectionRebuildView[]> {
    return (await service(ctx).rebuilds({ first: page(first), ...afterOf(afterCursor), ...(domain ? { domain } : {}) })).map(rebuildView);
  }
}
