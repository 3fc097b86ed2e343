// GraphQL of "read your own writes": the `consistency` argument every read accepts, the writes a
// marker names as missing, and the field resolver that gives every Freshness its `missing` list
// (empty unless the read waited for consistency tokens). The wait itself lives in
// src/projections/consistency; resolvers call `awaitConsistency` before reading the marker and the data.
import { Field, FieldResolver, InputType, Int, ObjectType, Resolver, Root, registerEnumType } from 'type-graphql';
import type { Freshness as FreshnessValue } from '../../projections/freshness/decideFreshness';
import type { MissingReason, MissingVersion as Missing, WriteVisibility } from '../../projections/consistency/consistentReads';
import { freshnessWithWrites, type ConsistentFreshness } from '../../projections/consistency/freshnessWithWrites';
import type { Domain } from '../../publication/event';
import { principalOf } from '../auth';
import type { GatewayContext } from '../context';
import { DOMAIN_VALUES } from '../shared/enums';
import { requireService } from '../shared/services';
import { Freshness } from './freshness.types';

const MISSING_REASONS: Record<MissingReason, MissingReason> = {
  NOT_YET_VISIBLE: 'NOT_YET_VISIBLE',
  PROJECTOR_DEAD_LETTERED: 'PROJECTOR_DEAD_LETTERED',
  PARKED_OR_DEAD_LETTERED: 'PARKED_OR_DEAD_LETTERED',
};
registerEnumType(MISSING_REASONS, {
  name: 'MissingVersionReason',
  description: 'Why a write named by a consistency token is not in the read model.',
  valuesConfig: {
    NOT_YET_VISIBLE: { description: 'Not applied by the projector within maxWaitMs (normal delay; read again or wait longer).' },
    PROJECTOR_DEAD_LETTERED: { description: 'The projector dead-lettered the event: it will not be visible without an operator.' },
    PARKED_OR_DEAD_LETTERED: { description: 'Its publication is parked or dead-lettered: it will not be visible without an operator.' },
  },
});

@InputType({
  description:
    'Read your own writes: the read answers once every write the tokens name (or a newer version) is in the read model, ' +
    'or after maxWaitMs with what it has (freshness CATCHING_UP, or STALE when a write cannot arrive; `missing` names them).',
})
export class ConsistencyInput {
  @Field(() => [String], { description: 'consistencyToken values of your own mutations (several combine).' }) atLeast!: string[];
  @Field(() => Int, {
    nullable: true,
    description: 'Longest wait in milliseconds (default CONSISTENCY_WAIT_DEFAULT_MS, 2000; at most CONSISTENCY_WAIT_MAX_MS, 10000).',
  })
  maxWaitMs?: number | null;
}

@ObjectType({ description: 'A write named by a consistency token that the read model does not hold yet.' })
export class MissingVersion {
  @Field(() => DOMAIN_VALUES) domain!: Domain;
  @Field(() => String) aggregateId!: string;
  @Field(() => Int, { description: 'The version written (a newer one would have done).' }) version!: number;
  @Field(() => MISSING_REASONS) reason!: MissingReason;
}

@Resolver(() => Freshness)
export class FreshnessMissingResolver {
  @FieldResolver(() => [MissingVersion], {
    description: 'Writes named by the read’s consistency tokens that are not in the read model (empty without tokens).',
  })
  missing(@Root() f: FreshnessValue & { missing?: Missing[] }): Missing[] {
    return f.missing ?? [];
  }
}

/** Waits for the caller's own writes when the read names tokens (undefined when it does not). */
export async function awaitConsistency(
  ctx: GatewayContext,
  consistency: ConsistencyInput | null | undefined,
): Promise<WriteVisibility | undefined> {
  if (!consistency) return undefined;
  return requireService(ctx, 'consistency').awaitWrites(principalOf(ctx), consistency.atLeast, consistency.maxWaitMs);
}

export const withWrites = (f: FreshnessValue, v: WriteVisibility | undefined): ConsistentFreshness => freshnessWithWrites(f, v);
