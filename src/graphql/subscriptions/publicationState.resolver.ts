// `publicationStateChanged`: operators watch publications move (outbox NEW → PROCESSING → SENT /
// FAILED → PARKED → replayed; kafka-first PUBLISHED_DIRECT, NOT_PUBLISHED, PUBLISHED, DEAD_LETTER,
// FALLBACK_STORE_FAILED; PROJECTION_APPLIED once ClickHouse has it, PROJECTION_DEAD_LETTERED when the
// projector dead-letters it), from any process, live.
import { Arg, Authorized, Field, Int, ObjectType, Resolver, Root, Subscription, registerEnumType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { mayOperate } from '../../auth/principal';
import { AuthError } from '../../auth/tokens';
import type { Domain } from '../../publication/event';
import type { ObservedState, StateChange } from '../../publication/stateChanges/stateChange';
import type { GatewayContext } from '../context';
import { TidemarkError } from '../../shared/errors';
import { requireService } from '../shared/services';
import { DOMAIN_VALUES } from '../shared/enums';
import { PublicationStateEnum } from '../publication';

const OBSERVED: Record<ObservedState, ObservedState> = {
  ...PublicationStateEnum,
  PROJECTION_APPLIED: 'PROJECTION_APPLIED',
  PROJECTION_DEAD_LETTERED: 'PROJECTION_DEAD_LETTERED',
};
registerEnumType(OBSERVED, {
  name: 'ObservedPublicationState',
  description:
    'A publication state, PROJECTION_APPLIED once the read model holds the event,\n' +
    'or PROJECTION_DEAD_LETTERED when the projector sent it to the dead-letter topic (not applied until an operator replays it).',
});

@ObjectType({ description: 'One transition of one publication.' })
export class PublicationStateChange {
  @Field(() => String) eventId!: string;
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) aggregateId!: string;
  @Field(() => Int) version!: number;
  @Field(() => OBSERVED, { nullable: true, description: 'Null when the publication is first seen.' }) from!: ObservedState | null;
  @Field(() => OBSERVED) to!: ObservedState;
  @Field(() => Int, { description: 'Publish attempts so far (0 when not applicable).' }) attempt!: number;
  @Field(() => GraphQLDateTimeISO) at!: Date;
}

interface Args {
  domain?: Domain | null;
  states?: ObservedState[] | null;
  aggregateId?: string | null;
}

@Resolver()
export class PublicationStateResolver {
  @Authorized('operate')
  @Subscription(() => PublicationStateChange, {
    description: 'Operator only. Every publication-state transition matching the filter, from every process, as it happens.',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      const a = args as Args;
      if (!ctx.auth.principal) throw new AuthError('UNAUTHENTICATED', 'authentication required');
      if (!mayOperate(ctx.auth.principal)) throw new AuthError('FORBIDDEN', 'not allowed for your role');
      const stateChanges = requireService(ctx, 'stateChanges');
      if (a.aggregateId && a.aggregateId.length > 128)
        throw new TidemarkError('VALIDATION_FAILED', 'aggregateId is too long', { details: { field: 'aggregateId' } });
      return stateChanges.subscribe(
        { domain: a.domain ?? undefined, states: a.states ?? undefined, aggregateId: a.aggregateId ?? undefined },
        ctx.connection,
      );
    },
  })
  publicationStateChanged(
    @Root() change: StateChange,
    @Arg('domain', () => DOMAIN_VALUES, { nullable: true }) _domain?: Domain,
    @Arg('states', () => [OBSERVED], { nullable: true }) _states?: ObservedState[],
    @Arg('aggregateId', () => String, { nullable: true }) _aggregateId?: string,
  ): PublicationStateChange {
    return change;
  }
}
