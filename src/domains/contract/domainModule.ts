// A domain module: everything the generic machinery (publication, relay, projector, freshness,
// consistency tokens, reconciliation, the gateway) needs to know about one domain, as one value. A
// domain folder (src/domains/<d>/module.ts) exports one; the registry (src/domains/registry.ts) holds
// the built-in ones and any a deployment or a test registers. The machinery loops over the registry
// or looks a module up by an event's or a scope's domain, and never branches on a domain's name.
import { reportAccessFor, scopeFor, type DomainPolicy } from '../../auth/access';
import type { Principal } from '../../auth/principal';
import type { PublicationStrategySettings } from '../../config/slices';
import type { Strategy } from '../../publication/publisher';
import type { Domain } from '../../shared/domain';
import type { KnexMigration, ClickHouseMigration } from '../../../migrations/types';
import type { DomainGateway } from './domainGateway';
import type { DomainErasure } from './erasure';
import type { Projection } from './projection';
import type { ReconciledDomain } from './reconciliation';

/** A setting whose value is a publication strategy. */
export type StrategySetting = Exclude<keyof PublicationStrategySettings, 'publicationStrategies'>;

/** The strategy a domain's events are published with under these settings. */
export function strategyOf(s: PublicationStrategySettings, m: DomainModule): Strategy {
  return s.publicationStrategies[m.name] ?? (m.strategySetting ? s[m.strategySetting] : m.defaultStrategy);
}

/** Where a domain's business rows (and so its publication rows) live. */
export type DomainStoreKind = 'mysql-shards' | 'postgres';

/**
 * Which event fields the caller's scope and a freshness question may filter pending publication rows
 * on (data.<field>): fields that never change across an aggregate's versions, or whose newest value
 * is the one the read side applies.
 */
export type DataIn = Readonly<Record<string, readonly (string | number)[]>>;

/** The domain's authorisation: its policy, and a scope of it as a filter on pending event data. */
export interface DomainAccess<S = unknown> {
  policy: DomainPolicy<S>;
  /** The rows a scope covers, as data.<field> IN values (OR-ed across fields); undefined: every row. */
  membership(scope: S): DataIn | undefined;
  /** The fields its freshness questions and memberships may name (a fixed list, never the caller's). */
  scopeFields: readonly string[];
}

/** The domain's own tables, migrated after the core ones (names prefixed with the domain's). */
export interface DomainMigrations {
  mysql?: readonly KnexMigration[];
  postgres?: readonly KnexMigration[];
  /** ClickHouse migrations of its projection table; versions are the domain's own sequence. */
  clickhouse?: readonly ClickHouseMigration[];
}

export interface DomainModule {
  /** Lower-case name: the events' `domain`, metric labels, ledger scopes, consistency tokens. */
  readonly name: Domain;
  /** Its events' topic: <KAFKA_TOPIC_PREFIX>.<topicSuffix>. */
  readonly topicSuffix: string;
  /** The one character naming the domain inside a consistency token (never reused: tokens outlive deploys). */
  readonly tokenCode: string;
  readonly store: DomainStoreKind;
  /**
   * On the MySQL shards: the shard an aggregate id names (undefined: an id no row can have), so a
   * per-aggregate question asks only that shard and a shard that is down leaves the others' ids
   * answerable. Without it every shard is asked.
   */
  readonly shardOfAggregate?: (aggregateId: string) => number | undefined;
  /** How its events are published unless configuration says otherwise (PUBLICATION_STRATEGIES, or its own setting). */
  readonly defaultStrategy: Strategy;
  /** The setting naming its strategy, for a domain that has one of its own (FITNESS_PUBLICATION_STRATEGY...). */
  readonly strategySetting?: StrategySetting;
  readonly access: DomainAccess;
  readonly projection: Projection;
  readonly reconciliation: ReconciledDomain;
  readonly migrations?: DomainMigrations;
  /** A domain registered from outside src/ brings its GraphQL surface here (built-in ones are listed in src/graphql). */
  readonly gateway?: DomainGateway;
  /** How a person is erased from this domain's stores (docs/erasure.md); absent: the domain holds no personal data. */
  readonly erasure?: DomainErasure;
}

/** A domain's access with its scope type kept inside: the machinery only passes a scope back in. */
export function domainAccess<S>(a: DomainAccess<S>): DomainAccess {
  return a as DomainAccess;
}

/** What a principal may read ('read') or aggregate ('report') of a domain, as a membership filter. */
export function membershipOf(m: Pick<DomainModule, 'access'>, p: Principal, use: 'read' | 'report'): DataIn | undefined {
  const { policy, membership } = m.access;
  return membership(use === 'read' ? scopeFor(policy, p, 'read') : reportAccessFor(policy, p, 0).scope);
}
