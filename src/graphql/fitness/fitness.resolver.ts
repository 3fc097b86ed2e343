// Fitness mutations. The resolver only translates GraphQL to service calls: validation, routing,
// concurrency and publication live in src/domains/fitness; errors are TidemarkErrors that
// src/graphql/errors.ts maps to stable codes (VALIDATION_FAILED, VERSION_CONFLICT, NOT_FOUND, ...).
// The caller's principal goes to the service, which decides which results it may write (@Authorized
// only refuses roles without fitness writes early).
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import type { Principal } from '../../auth/principal';
import { parseDataId } from '../../domains/fitness/decide';
import type { FitnessService, FitnessWriteOutcome } from '../../domains/fitness/service';
import type { ConsistencyService } from '../../projections/consistency/consistentReads';
import { principalOf } from '../auth';
import type { GatewayContext } from '../context';
import { DecimalScalar } from '../scalars';
import { FitnessResultPayload, RecordFitnessResultInput, toFitnessResult } from './fitness.types';
import { requireService } from '../shared/services';

function service(ctx: GatewayContext): FitnessService {
  return requireService(ctx, 'fitness');
}

/** The payload, with the token of the version written (a replay's is the first write's, which it returns). */
function payload(o: FitnessWriteOutcome, viewer: Principal, consistency: ConsistencyService): FitnessResultPayload {
  const written = { domain: 'fitness' as const, aggregateId: String(o.result.dataId), version: o.result.version };
  return {
    result: toFitnessResult(o.result, viewer),
    publication: o.publication,
    replayed: o.replayed,
    consistencyToken: consistency.tokenFor(viewer, [written]),
  };
}

// Asked for before writing: an instance that cannot issue tokens refuses the mutation up front
// rather than committing a write whose answer then fails.
const tokens = (ctx: GatewayContext) => requireService(ctx, 'consistency');

@Resolver()
export class FitnessResolver {
  @Authorized('fitness:write')
  @Mutation(() => FitnessResultPayload, {
    description: 'Records a new result (version 1). With an idempotencyKey, a retried request returns the first result.',
  })
  async recordFitnessResult(
    @Arg('input', () => RecordFitnessResultInput) input: RecordFitnessResultInput,
    @Ctx() ctx: GatewayContext,
  ): Promise<FitnessResultPayload> {
    const { idempotencyKey, measuredAt, ...rest } = input;
    const actor = principalOf(ctx);
    const consistency = tokens(ctx);
    const optional = { ...(idempotencyKey == null ? {} : { idempotencyKey }), ...(measuredAt == null ? {} : { measuredAt }) };
    return payload(await service(ctx).record({ ...rest, ...optional }, actor), actor, consistency);
  }

  @Authorized('fitness:write')
  @Mutation(() => FitnessResultPayload, {
    description:
      'Corrects a result, optionally moving it to another school. Fails with VERSION_CONFLICT (details.currentVersion) when ' +
      'expectedVersion is not the current version; NOT_FOUND for a result outside your schools (as for a missing one); FORBIDDEN ' +
      'for a move to a school outside them. Nothing changes then.',
  })
  async correctFitnessResult(
    @Arg('dataId', () => ID) dataId: string,
    @Arg('expectedVersion', () => Int) expectedVersion: number,
    @Arg('result', () => DecimalScalar) result: string,
    @Arg('unit', () => String) unit: string,
    @Ctx() ctx: GatewayContext,
    @Arg('schoolId', () => Int, { nullable: true, description: 'Moves the result to this school (a student who changed school).' })
    schoolId?: number | null,
    @Arg('measuredAt', () => GraphQLDateTimeISO, {
      nullable: true,
      description: "When the test was taken (same rules as on record); omitted: the previous version's value is kept.",
    })
    measuredAt?: Date | null,
  ): Promise<FitnessResultPayload> {
    const actor = principalOf(ctx);
    const cmd = {
      dataId: parseDataId(dataId),
      expectedVersion,
      result,
      unit,
      ...(schoolId == null ? {} : { schoolId }),
      ...(measuredAt == null ? {} : { measuredAt }),
    };
    const consistency = tokens(ctx);
    return payload(await service(ctx).correct(cmd, actor), actor, consistency);
  }

  @Authorized('fitness:write')
  @Mutation(() => FitnessResultPayload, {
    description:
      'Deletes a result: a new tombstone version (isDeleted true) is published and the shard keeps a deletion log. NOT_FOUND ' +
      'for a result outside your schools, as for a missing one.',
  })
  async deleteFitnessResult(
    @Arg('dataId', () => ID) dataId: string,
    @Arg('expectedVersion', () => Int) expectedVersion: number,
    @Ctx() ctx: GatewayContext,
  ): Promise<FitnessResultPayload> {
    const actor = principalOf(ctx);
    const consistency = tokens(ctx);
    return payload(await service(ctx).delete({ dataId: parseDataId(dataId), expectedVersion }, actor), actor, consistency);
  }
}
