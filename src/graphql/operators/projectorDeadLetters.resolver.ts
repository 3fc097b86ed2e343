// Operator-only view and replay of the projector's dead letters (messages its mapping rejected).
// Listed oldest first with keyset pagination, without their content: where each came from, why,
// its eventId and aggregate when the message names them, when. A replay maps the chosen messages
// with the current mapping: accepted ones reach the read model and become REPLAYED, rejected ones
// stay DEAD with their new reason. See docs/projections.md.
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import type {
  DeadLetterCursor,
  DeadLetterFilter,
  DeadLetterKey,
  DeadLetterSummary,
  ProjectorDeadLetters,
  ReplayedDeadLetter,
} from '../../projections/deadLetterOperator';
import type { DeadLetterReason } from '../../domains/contract/decoded';
import type { Domain } from '../../publication/event';
import { ValidationError, toTidemarkError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { decodeCursor, encodeCursor } from '../../shared/cursor';
import { AFTER, page } from '../reconciliation/paging';
import { CURSOR } from '../connection';
import { DOMAIN_VALUES, enumOf } from '../shared/enums';
import { requireService } from '../shared/services';

type Status = DeadLetterSummary['status'];

export const ReasonEnum = enumOf<DeadLetterReason>([
  'EMPTY_MESSAGE',
  'MALFORMED_JSON',
  'INVALID_ENVELOPE',
  'UNSUPPORTED_SCHEMA_VERSION',
  'WRONG_TOPIC',
  'UNKNOWN_EVENT_TYPE',
  'INVALID_DATA',
  'INCONSISTENT_EVENT',
]);
registerEnumType(ReasonEnum, { name: 'ProjectorDeadLetterReason', description: 'Why the projector mapping rejected a message.' });
export const DeadLetterStatusEnum = enumOf<Status>(['DEAD', 'REPLAYED', 'DISCARDED']);
registerEnumType(DeadLetterStatusEnum, {
  name: 'ProjectorDeadLetterStatus',
  description:
    'DEAD: not in the read model (the backlog; its scope reads STALE). REPLAYED: a replay projected it. ' +
    'DISCARDED: an operator decided it is not an event to project (kept as the record of that decision).',
});
const ReplayOutcomeEnum = enumOf<ReplayedDeadLetter['outcome']>(['PROJECTED', 'REJECTED_AGAIN']);
registerEnumType(ReplayOutcomeEnum, {
  name: 'ProjectorDeadLetterReplayOutcome',
  description: 'PROJECTED: the current mapping accepted it. REJECTED_AGAIN: still dead, with its new reason.',
});

@ObjectType({ description: 'A message the projector could not map. Never carries the message itself.' })
export class ProjectorDeadLetterView {
  @Field(() => ID, { description: '<topic>/<partition>/<offset> of the original message.' }) id!: string;
  @Field(() => String, CURSOR) cursor!: string;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) topic!: string;
  @Field(() => Int) partition!: number;
  @Field(() => String) offset!: string;
  @Field(() => ReasonEnum, { description: 'The error code of the last rejection.' }) reason!: DeadLetterReason;
  @Field(() => String, { description: 'Field paths and check names of the last rejection; never values.' }) detail!: string;
  @Field(() => String, { nullable: true, description: 'When the message names one.' }) eventId!: string | null;
  @Field(() => String, { nullable: true, description: 'When the message names one.' }) aggregateId!: string | null;
  @Field(() => GraphQLDateTimeISO) deadLetteredAt!: Date;
  @Field(() => DeadLetterStatusEnum) status!: Status;
  @Field(() => Int) replays!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) lastReplayedAt!: Date | null;
  @Field(() => String, { nullable: true }) lastReplayedBy!: string | null;
}

@ObjectType()
export class ReplayedProjectorDeadLetter extends ProjectorDeadLetterView {
  @Field(() => ReplayOutcomeEnum) outcome!: ReplayedDeadLetter['outcome'];
}

@ObjectType()
export class ReplayProjectorDeadLettersPayload {
  @Field(() => Int) projected!: number;
  @Field(() => Int) rejectedAgain!: number;
  @Field(() => [ReplayedProjectorDeadLetter]) deadLetters!: ReplayedProjectorDeadLetter[];
}

@InputType({ description: 'Which projector dead letters; every field narrows the selection.' })
export class ProjectorDeadLetterFilter {
  @Field(() => DOMAIN_VALUES, { nullable: true }) domain?: Domain | null;
  @Field(() => [ReasonEnum], { nullable: true }) reasons?: DeadLetterReason[] | null;
  @Field(() => [DeadLetterStatusEnum], { nullable: true, description: 'Default: DEAD (the backlog). Replays only ever take DEAD ones.' })
  statuses?: Status[] | null;
}

const MAX_REPLAY = 1000;
const isCursor = (v: unknown): v is { d: number; t: string; p: number; o: string } => {
  const c = v as { d?: unknown; t?: unknown; p?: unknown; o?: unknown } | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    Number.isSafeInteger(c.d) &&
    typeof c.t === 'string' &&
    /^[A-Za-z0-9._-]{1,249}$/.test(c.t) &&
    Number.isSafeInteger(c.p) &&
    typeof c.o === 'string' &&
    /^\d{1,20}$/.test(c.o)
  );
};

export function operations(ctx: GatewayContext): ProjectorDeadLetters {
  return requireService(ctx, 'reconciliation').projectorDeadLetters;
}

export function keyOf(id: string): DeadLetterKey {
  const m = /^([A-Za-z0-9._-]{1,249})\/(\d{1,9})\/(\d{1,20})$/.exec(id);
  if (!m) throw new ValidationError('ids', 'ids must be projector dead-letter ids (<topic>/<partition>/<offset>)');
  return { topic: m[1]!, partition: Number(m[2]), offset: m[3]! };
}

function filterOf(f: ProjectorDeadLetterFilter | null | undefined): DeadLetterFilter {
  return {
    ...(f?.domain ? { domain: f.domain } : {}),
    ...(f?.reasons?.length ? { reasons: f.reasons } : {}),
    ...(f?.statuses?.length ? { statuses: f.statuses } : {}),
  };
}

export function view(d: DeadLetterSummary): ProjectorDeadLetterView {
  return {
    id: `${d.sourceTopic}/${d.sourcePartition}/${d.sourceOffset}`,
    cursor: encodeCursor({ d: d.deadAtMs, t: d.sourceTopic, p: d.sourcePartition, o: d.sourceOffset }),
    domain: d.domain,
    topic: d.sourceTopic,
    partition: d.sourcePartition,
    offset: d.sourceOffset,
    reason: d.reason,
    detail: d.detail,
    eventId: d.eventId || null,
    aggregateId: d.aggregateId || null,
    deadLetteredAt: new Date(d.deadAtMs),
    status: d.status,
    replays: d.replays,
    lastReplayedAt: d.lastReplayedAtMs ? new Date(d.lastReplayedAtMs) : null,
    lastReplayedBy: d.lastReplayedBy || null,
  };
}

@Resolver()
export class ProjectorDeadLettersResolver {
  @Authorized('operate')
  @Query(() => [ProjectorDeadLetterView], {
    description: 'Operator only. Messages the projector mapping rejected (default: those not replayed), oldest first; never their content.',
  })
  async projectorDeadLetters(
    @Ctx() ctx: GatewayContext,
    @Arg('filter', () => ProjectorDeadLetterFilter, { nullable: true }) filter: ProjectorDeadLetterFilter | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ProjectorDeadLetterView[]> {
    const c = decodeCursor(after, isCursor);
    const cursor: DeadLetterCursor | undefined = c && { deadAtMs: c.d, topic: c.t, partition: c.p, offset: c.o };
    const n = page(first);
    try {
      return (await operations(ctx).list(filterOf(filter), n, cursor)).map(view);
    } catch (err) {
      throw toTidemarkError(err, 'clickhouse');
    }
  }

  @Authorized('operate')
  @Mutation(() => ReplayProjectorDeadLettersPayload, {
    description:
      'Operator only. Maps the chosen DEAD messages (by ids, or the oldest `limit` matching a filter)' +
      ' with the current mapping: accepted ones are projected (their own version and eventId)' +
      ' and become REPLAYED; rejected ones stay DEAD with their new reason.',
  })
  async replayProjectorDeadLetters(
    @Ctx() ctx: GatewayContext,
    @Arg('ids', () => [ID], { nullable: true }) ids: string[] | null,
    @Arg('filter', () => ProjectorDeadLetterFilter, { nullable: true }) filter: ProjectorDeadLetterFilter | null,
    @Arg('limit', () => Int, { defaultValue: 100 }) limit: number,
  ): Promise<ReplayProjectorDeadLettersPayload> {
    if ((ids == null) === (filter == null)) throw new ValidationError('ids', 'give exactly one of ids or filter');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_REPLAY) throw new ValidationError('limit', `limit must be 1 to ${MAX_REPLAY}`);
    if (ids && (ids.length === 0 || ids.length > MAX_REPLAY)) throw new ValidationError('ids', `ids must hold 1 to ${MAX_REPLAY} ids`);
    const selection: DeadLetterFilter = ids ? { keys: ids.map(keyOf) } : { ...filterOf(filter), statuses: ['DEAD'] };
    const by = ctx.auth.principal?.subject ?? 'unknown';
    let replayed: ReplayedDeadLetter[];
    try {
      replayed = await operations(ctx).replay(selection, ids ? ids.length : limit, by);
    } catch (err) {
      throw toTidemarkError(err, 'clickhouse');
    }
    ctx.logger.info(
      { replayed: replayed.length, projected: replayed.filter((r) => r.outcome === 'PROJECTED').length, by },
      'projector dead letters replayed by an operator',
    );
    return {
      projected: replayed.filter((r) => r.outcome === 'PROJECTED').length,
      rejectedAgain: replayed.filter((r) => r.outcome === 'REJECTED_AGAIN').length,
      deadLetters: replayed.map((r) => ({ ...view(r), outcome: r.outcome })),
    };
  }
}
