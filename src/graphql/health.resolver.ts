// `health`: the gateway's own view of its stores, for frontends and operators alike.
import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from './context';

@ObjectType({ description: 'Whether one backing store answers right now.' })
export class StoreHealth {
  @Field(() => String, { description: 'mysql | postgres | kafka | clickhouse' })
  store!: string;

  @Field(() => Boolean)
  up!: boolean;
}

@ObjectType({ description: 'This gateway process and the stores it depends on.' })
export class Health {
  @Field(() => Boolean, { description: 'True when every store answers.' })
  ready!: boolean;

  @Field(() => [StoreHealth])
  stores!: StoreHealth[];

  @Field(() => String)
  instanceId!: string;

  @Field(() => [String], { description: 'Roles this process runs: gateway, relay, projector, reconciler.' })
  roles!: string[];

  @Field(() => String)
  version!: string;
}

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'Readiness of this gateway and its stores.' })
  async health(@Ctx() ctx: GatewayContext): Promise<Health> {
    const r = await ctx.services.readiness();
    return {
      ready: r.ready,
      stores: Object.entries(r.stores).map(([store, up]) => ({ store, up })),
      instanceId: ctx.services.instanceId,
      roles: ctx.services.roles,
      version: ctx.services.version,
    };
  }
}
