// Enums every audience's schema shares (the domain of an event), registered once.
import { registerEnumType } from 'type-graphql';
import type { Domain } from '../../publication/event';

/** A type-graphql enum object whose values are their own names. */
export const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

export const DOMAIN_VALUES: Record<Domain, Domain> = { fitness: 'fitness', orders: 'orders' };
registerEnumType(DOMAIN_VALUES, { name: 'EventDomain', description: 'The domain an event belongs to.' });
