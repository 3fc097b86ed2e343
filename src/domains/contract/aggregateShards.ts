// A fact a domain on the MySQL shards may state about its aggregate ids: that an id names the shard
// its rows (and so its publication rows) live on. Per-aggregate freshness then asks only that shard
// for an id, so a shard that is down leaves the other shards' ids answerable. A module without it is
// asked on every shard. Kept apart from DomainModule until the integrator folds it in.
import type { DomainModule } from './domainModule';

export interface AggregateShards {
  /** The shard index an aggregate id names; undefined: an id no row can have (nothing to ask). */
  readonly shardOfAggregate?: (aggregateId: string) => number | undefined;
}

/** The module's shard routing, if it states one. */
export function shardRoutingOf(m: DomainModule): AggregateShards['shardOfAggregate'] {
  return (m as DomainModule & AggregateShards).shardOfAggregate;
}
