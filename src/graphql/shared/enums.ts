// Enums every audience's schema shares (the domain of an event), registered once. EventDomain lists
// the registered domains (src/domains/registry.ts) as they are when a schema is built, so a domain
// registered before start is a value of it like the built-in ones; nothing here names a domain.
import { registerEnumType } from 'type-graphql';
import { domainModules } from '../../domains/registry';
import type { Domain } from '../../publication/event';

/** A type-graphql enum object whose values are their own names. */
export const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

/** The registered domain names, each its own value. */
const names = (): Domain[] => domainModules().map((m) => m.name);

/**
 * A live view of the registry as an enum object: type-graphql reads its keys (Object.keys) when it
 * builds a schema, not when the enum is registered, and keeps the object itself as the enum's identity.
 */
export const DOMAIN_VALUES: Record<Domain, Domain> = new Proxy({} as Record<Domain, Domain>, {
  ownKeys: () => names(),
  getOwnPropertyDescriptor: (_, key) =>
    typeof key === 'string' && names().includes(key) ? { value: key, enumerable: true, configurable: true, writable: false } : undefined,
  get: (_, key) => (typeof key === 'string' && names().includes(key) ? key : undefined),
  has: (_, key) => typeof key === 'string' && names().includes(key),
});
registerEnumType(DOMAIN_VALUES, { name: 'EventDomain', description: 'The domain an event belongs to.' });
