// Operator-only list of reconciliation runs (operator, schedule, rotation, expired events,
// verification): outcome, levels, counts and note, newest first, keyset-paginated.
import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../context';
import { AFTER, afterOf, page } from './paging';
import { text } from '../shared/arguments';
import { runView, service } from './reconciliation.resolver';
import { ReconciliationRunFilterInput, ReconciliationRunView } from './reconciliation.types';

@Resolver()
export class ReconciliationRunsResolver {
  @Authorized('operate')
  @Query(() => [ReconciliationRunView], {
    description: 'Operator only. Reconciliation runs with their outcome, level, counts and note, newest first.',
  })
  async reconciliationRuns(
    @Ctx() ctx: GatewayContext,
    @Arg('filter', () => ReconciliationRunFilterInput, { nullable: true }) filter: ReconciliationRunFilterInput | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ReconciliationRunView[]> {
    const rows = await service(ctx).runs({
      first: page(first),
      ...afterOf(after),
      ...(filter?.domain ? { domain: filter.domain } : {}),
      ...(filter?.scopeKey != null ? { scopeKey: text('scopeKey', filter.scopeKey, 200) } : {}),
      ...(filter?.triggers?.length ? { triggers: filter.triggers } : {}),
      ...(filter?.outcomes?.length ? { outcomes: filter.outcomes } : {}),
    });
    return rows.map(runView);
  }
}
