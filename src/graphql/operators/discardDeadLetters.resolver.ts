// Operator only: discard projector dead letters that no mapping will ever accept (bytes that are not
// an event, a message from a foreign producer). A DEAD dead letter keeps its scope STALE (an operator
// must look at it); replaying garbage only rejects it again, so discarding is how an operator closes
// it. Chosen by id only, never by filter, so nothing is discarded unseen; the reason and the operator
// go to the audit log line, and the row stays (status DISCARDED, who, when) as the record.
import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { ValidationError, toTidemarkError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { ProjectorDeadLetterView, keyOf, operations, view } from './projectorDeadLetters.resolver';

const MAX_DISCARD = 1000;
const MAX_REASON = 500;

@Resolver()
export class DiscardDeadLettersResolver {
  @Authorized('operate')
  @Mutation(() => [ProjectorDeadLetterView], {
    description:
      'Operator only. Marks the chosen DEAD projector dead letters DISCARDED: never projected, no longer in the backlog, ' +
      'and no longer making their scope STALE. Returns the ones discarded (ids that were not DEAD are left as they are).',
  })
  async discardProjectorDeadLetters(
    @Ctx() ctx: GatewayContext,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('reason', () => String, { description: 'Why: kept in the audit log (1 to 500 characters).' }) reason: string,
  ): Promise<ProjectorDeadLetterView[]> {
    if (ids.length === 0 || ids.length > MAX_DISCARD) throw new ValidationError('ids', `ids must hold 1 to ${MAX_DISCARD} ids`);
    if (reason.trim().length === 0 || reason.length > MAX_REASON)
      throw new ValidationError('reason', `reason must be 1 to ${MAX_REASON} characters`);
    const keys = ids.map(keyOf);
    const by = ctx.auth.principal?.subject ?? 'unknown';
    try {
      const discarded = await operations(ctx).discard(keys, by);
      ctx.logger.info({ discarded: discarded.length, asked: ids.length, by, reason }, 'projector dead letters discarded by an operator');
      return discarded.map(view);
    } catch (err) {
      throw toTidemarkError(err, 'clickhouse');
    }
  }
}
