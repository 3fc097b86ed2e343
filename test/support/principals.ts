// Principals for suites that call the write services directly (no token, no GraphQL): the trusted
// test backend most suites write as, and scoped callers for authorisation tests.
import type { Principal } from '../../src/auth/principal';

/** The subject tokenFor(s, 'service') signs, listed in AUTH_SERVICE_SUBJECTS of test settings. */
export const TEST_SERVICE: Principal = { subject: 'test-service', roles: ['service'] };

export const TEST_OPERATOR: Principal = { subject: 'test-operator', roles: ['operator'] };

export const teacherOf = (subject: string, ...schoolIds: number[]): Principal => ({ subject, roles: ['teacher'], schoolIds });

export const customerOf = (subject: string, customerId: string): Principal => ({ subject, roles: ['customer'], customerId });

export const studentOf = (subject: string, userId: number): Principal => ({ subject, roles: ['student'], userId });
