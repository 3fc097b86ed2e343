// Fitness mutations. The resolver only translates GraphQL to service calls: validation, routing,
// concurrency and publication live in src/domains/fitness; errors are TidemarkErrors that
// src/graphql/errors.ts maps to stable codes (VALIDATION_FAILED, VERSION_CONFLICT, NOT_FOUND, ...).
import { Arg, Authorized, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import { parseDataId } from '../../domains/fitness/decide';
import type { FitnessService, FitnessWriteOutcome } from '../../domains/fitness/service';
import type { GatewayContext } from '../context';
import { DecimalScalar } from '../scalars';
import { FitnessResultPayload, RecordFitnessResultInput, toFitnessResult } from './fitness.types';
import { requireService } from '../shared/services';

function service(ctx: GatewayContext): FitnessService {
  return requireService(ctx, 'fitness');
}

function payload(o: FitnessWriteOutcome): FitnessResultPayload {
  return { result: toFitnessResult(o.result), publication: o.publication, replayed: o.replayed };
}

@Resolver()
export class FitnessResolver {
  @Authorized('write')
  @Mutation(() => FitnessResultPayload, {
    description: 'Records a new result (version 1). With an idempotencyKey, a retried request returns the first result.',
  })
  async recordFitnessResult(
    @Arg('input', () => RecordFitnessResultInput) input: RecordFitnessResultInput,
    @Ctx() ctx: GatewayContext,
  ): Promise<FitnessResultPayload> {
    const { idempotencyKey, ...rest } = input;
    return payload(await service(ctx).record({ ...rest, ...(idempotencyKey == null ? {} : { idempotencyKey }) }));
  }

  @Authorized('write')
  @Mutation(() => FitnessResultPayload, {
    description:
      'Corrects a result. Fails with VERSION_CONFLICT (details.currentVersion) when expectedVersion is not the current version; nothing changes then.',
  })
  async correctFitnessResult(
    @Arg('dataId', () => ID) dataId: string,
    @Arg('expectedVersion', () => Int) expectedVersion: number,
    @Arg('result', () => DecimalScalar) result: string,
    @Arg('unit', () => String) unit: string,
    @Ctx() ctx: GatewayContext,
  ): Promise<FitnessResultPayload> {
    return payload(await service(ctx).correct({ dataId: parseDataId(dataId), expectedVersion, result, unit }));
  }

  @Authorized('write')
  @Mutation(() => FitnessResultPayload, {
    description: 'Deletes a result: a new tombstone version (isDeleted true) is published and the shard keeps a deletion log.',
  })
  async deleteFitnessResult(
    @Arg('dataId', () => ID) dataId: string,
    @Arg('expectedVersion', () => Int) expectedVersion: number,
    @Ctx() ctx: GatewayContext,
  ): Promise<FitnessResultPayload> {
    return payload(await service(ctx).delete({ dataId: parseDataId(dataId), expectedVersion }));
  }
}
