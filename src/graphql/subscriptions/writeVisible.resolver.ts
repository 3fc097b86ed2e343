// `writeVisible(consistencyToken)`: a client that wrote something learns, once, when its write is in
// the read model, or that it cannot get there (dead-lettered, with the reason), and the subscription
// then completes. Only the token's writer may subscribe (any other caller gets VALIDATION_FAILED,
// exactly as for a forged token), so it needs no operator role: the token is the authorisation.
// It starts with one check of the projection, then waits on the projector's notices, so a client that
// resubscribes after a gateway restart gets the answer at once, or when it happens.
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Arg, Authorized, Field, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import type { FreshnessReason as Reason } from '../../projections/freshness/decideFreshness';
import type { ConsistencyService, WriteVisibility as Visibility } from '../../projections/consistency/consistentReads';
import type { Principal } from '../../auth/principal';
import { principalOf } from '../auth';
import type { GatewayContext } from '../context';
import { MissingVersion } from '../queries/consistency.types';
import { FreshnessReason } from '../queries/freshness.types';
import { requireService } from '../shared/services';

@ObjectType({ description: 'Whether the writes a consistency token names are in the read model.' })
export class WriteVisibility {
  @Field(() => Boolean, { description: 'True: every named write (or a newer version) is in the read model.' }) visible!: boolean;
  @Field(() => FreshnessReason, {
    nullable: true,
    description: 'Why a write will not become visible without an operator: PROJECTOR_DEAD_LETTERED or PARKED_OR_DEAD_LETTERED.',
  })
  reason!: Reason | null;
  @Field(() => [MissingVersion], { description: 'The named writes not in the read model (empty when visible).' })
  missing!: MissingVersion[];
  @Field(() => GraphQLDateTimeISO, { description: 'When this gateway saw the outcome.' }) at!: Date;
}

/** One event, then done; return() (the client unsubscribed or went away) stops the wait at once. */
function once(service: ConsistencyService, caller: Principal, token: string): AsyncIterableIterator<Visibility> {
  const h = service.watchWrite(caller, token);
  let finished = false;
  const end = { value: undefined, done: true } as const;
  return {
    async next() {
      if (finished) return end;
      finished = true;
      const v = await h.outcome;
      return v ? { value: v, done: false } : end;
    },
    async return() {
      finished = true;
      h.cancel();
      return end;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

@Resolver()
export class WriteVisibleResolver {
  @Authorized()
  @Subscription(() => WriteVisibility, {
    description:
      'Emits exactly once when the writes the consistencyToken names are visible in the read model, or when one of them cannot ' +
      'become visible (dead-lettered; `reason` says which), then completes. Only the token’s writer may subscribe.',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      return once(requireService(ctx, 'consistency'), principalOf(ctx), (args as { consistencyToken: string }).consistencyToken);
    },
  })
  writeVisible(@Root() v: Visibility, @Arg('consistencyToken', () => String) _consistencyToken: string): WriteVisibility {
    return { visible: v.visible, reason: v.blocked, missing: v.missing, at: new Date() };
  }
}
