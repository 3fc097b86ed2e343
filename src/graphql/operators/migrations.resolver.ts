// `migrations`: what each engine has applied and what is pending, for `tidemark migrate status` and
// deploy checks. Read-only: migrations run at start (or `npm run migrate`), never from the API.
import { Authorized, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { toTidemarkError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { requireService } from '../shared/services';

@ObjectType({ description: 'The migrations of one database.' })
export class MigrationStatusView {
  @Field(() => String, { description: 'mysql | postgres | clickhouse' }) engine!: string;
  @Field(() => String, { description: 'The database: a fitness shard, the orders database or the projection database.' }) target!: string;
  @Field(() => [String], { description: 'Applied migrations, in order.' }) applied!: string[];
  @Field(() => [String], { description: 'Migrations this version has that the database has not applied yet (applied at the next start).' })
  pending!: string[];
}

@Resolver()
export class MigrationsResolver {
  @Authorized('operate')
  @Query(() => [MigrationStatusView], { description: 'Operator only. Applied and pending migrations of every database this gateway uses.' })
  async migrations(@Ctx() ctx: GatewayContext): Promise<MigrationStatusView[]> {
    const status = requireService(ctx, 'migrationStatus');
    try {
      return await status();
    } catch (err) {
      throw toTidemarkError(err, 'migrations');
    }
  }
}
