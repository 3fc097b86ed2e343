// Enums every audience's schema shares (the domain of an event), registered once.
import { registerEnumType } from 'type-graphql';
import type { Domain } from '../../publication/event';

export const DOMAIN_VALUES: Record<Domain, Domain> = { fitness: 'fitness', orders: 'orders' };
registerEnumType(DOMAIN_VALUES, { name: 'EventDomain', description: 'The domain an event belongs to.' });
