// `health`: the gateway's own view of its stores, for frontends and operators alike.
import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
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
  @Field(() => Boolean, {
    description:
      'True when this process can do its job: a gateway is ready while it can serve fitness writes (any shard), ' +
      'order writes (PostgreSQL) or reads (ClickHouse), degraded when some of them are down.',
  })
  ready!: boolean;

  @Field(() => String, {
    description: 'ready | degraded (a store it can work without for a while is down) | not-ready | draining (shutting down).',
  })
  status!: string;

  @Field(() => [String], { description: 'Stores that are down and that this process cannot work without.' })
  failing!: string[];

  @Field(() => [String], {
    description:
      'Stores that are down but that this process can work without for a while (a gateway without Kafka stores fallback and outbox rows).',
  })
  degraded!: string[];

  @Field(() => [Int], { description: 'Fitness shards (by index) that do not answer: their students cannot write for now.' })
  shardsDown!: number[];

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
      status: r.status,
      failing: r.failing,
      degraded: r.degraded,
      shardsDown: r.shardsDown,
      stores: Object.entries(r.stores).map(([store, up]) => ({ store, up })),
      instanceId: ctx.services.instanceId,
      roles: ctx.services.roles,
      version: ctx.services.version,
    };
  }
}
