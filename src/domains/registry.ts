// The registry of domain modules: the built-in ones (fitness, orders) and any a deployment or a test
// registers before the process starts its roles. The generic machinery asks it for every module or
// for the module of an event's, a scope's or a row's domain; nothing else lists domains. Registration
// checks what would otherwise collide at run time: names, topics, projection tables, token codes.
import { ValidationError } from '../shared/errors';
import { DOMAIN_NAME, type Domain } from '../shared/domain';
import type { DomainModule } from './contract/domainModule';
import { fitnessModule } from './fitness/module';
import { ordersModule } from './orders/module';

const registered = new Map<Domain, DomainModule>();

/** A module's ClickHouse migrations number from here (the core ones, migrations/clickhouse, below). */
export const MODULE_CLICKHOUSE_VERSIONS = 1000;

/** Adds a module; throws a ValidationError naming the clash when it would collide with another. */
export function registerDomain(m: DomainModule): void {
  if (!DOMAIN_NAME.test(m.name)) throw new ValidationError('domain', `a domain name is 2-31 lower-case letters or digits: ${m.name}`);
  for (const other of registered.values()) {
    const clash =
      other.name === m.name
        ? 'name'
        : other.topicSuffix === m.topicSuffix
          ? 'topic'
          : other.projection.table.name === m.projection.table.name
            ? 'projection table'
            : other.tokenCode === m.tokenCode
              ? 'token code'
              : undefined;
    if (clash) throw new ValidationError('domain', `domain ${m.name} has the ${clash} of domain ${other.name}`);
  }
  const versions = (x: DomainModule) => (x.migrations?.clickhouse ?? []).map((c) => c.version);
  const low = versions(m).find((v) => v < MODULE_CLICKHOUSE_VERSIONS);
  if (low !== undefined)
    throw new ValidationError('domain', `domain ${m.name}: ClickHouse migration ${low} is below ${MODULE_CLICKHOUSE_VERSIONS}`);
  const taken = [...registered.values()].flatMap(versions).find((v) => versions(m).includes(v));
  if (taken !== undefined) throw new ValidationError('domain', `domain ${m.name}: ClickHouse migration version ${taken} is taken`);
  if (m.projection.domain !== m.name || m.reconciliation.domain !== m.name)
    throw new ValidationError('domain', `domain ${m.name}: its projection and reconciliation parts name another domain`);
  registered.set(m.name, m);
}

/** Every registered module, built-in ones first, in registration order. */
export function domainModules(): readonly DomainModule[] {
  return [...registered.values()];
}

/** The module of a domain; a domain nobody registered is a validation error (e.g. a stored scope, an event). */
export function domainModule(domain: unknown): DomainModule {
  const m = typeof domain === 'string' ? registered.get(domain) : undefined;
  if (!m) throw new ValidationError('domain', 'unknown domain');
  return m;
}

/** Each registered domain's events topic suffix (the composition root names the topics with it). */
export function eventTopicSuffixes(): Readonly<Record<Domain, string>> {
  return Object.fromEntries(domainModules().map((m) => [m.name, m.topicSuffix]));
}

/**
 * The domains whose modules have an erasure part: their data is personal, so their events topics (and
 * the dead-letter topic) are compacted and an erasure tombstones their records (src/infra/kafka/topicConfigs.ts).
 */
export function erasableDomains(): Domain[] {
  return domainModules()
    .filter((m) => m.erasure !== undefined)
    .map((m) => m.name);
}

/** Whether a string names a registered domain. */
export function isDomain(domain: unknown): domain is Domain {
  return typeof domain === 'string' && registered.has(domain);
}

registerDomain(fitnessModule);
registerDomain(ordersModule);
