// Who is calling, and what each role is. A principal is built once per token (src/auth/tokens.ts) and
// carries the scope its claims grant; the domains' policies (src/domains/<d>/policy.ts) turn it into
// the rows each capability may touch. Scoped roles fail closed: a teacher without school_ids, a
// customer without customer_id or a student without user_id is refused when the token is read, so no
// code path ever sees a scoped role with an unscoped view.
//   customer  places and reads its own orders (customer_id)
//   teacher   records, corrects, deletes, reads and reports results of its schools (school_ids)
//   student   reads its own results (user_id); no writes
//   analyst   reports only, optionally limited to school_ids; small groups suppressed
//   operator  everything
//   service   a trusted backend that authorises its own users; unscoped rows, no operator actions.
//             Exists only for subjects listed in AUTH_SERVICE_SUBJECTS.
export type Role = 'customer' | 'teacher' | 'student' | 'analyst' | 'operator' | 'service';
export const ROLES: readonly Role[] = ['customer', 'teacher', 'student', 'analyst', 'operator', 'service'];

/** The role every token carried before scoped roles existed; refused with a message naming these. */
export const RETIRED_ROLES: Readonly<Record<string, string>> = {
  client: 'the client role is retired: use customer (orders), teacher or student (fitness results), or service (a trusted backend)',
};

export interface Principal {
  subject: string;
  roles: Role[];
  /** customer: the one customer whose orders this principal places and reads. */
  customerId?: string;
  /** teacher (required) and analyst (optional): the schools in scope. */
  schoolIds?: readonly number[];
  /** student: the student's own user id. */
  userId?: number;
}

export const hasRole = (p: Principal, ...roles: Role[]): boolean => p.roles.some((r) => roles.includes(r));

/** Operators and enabled services see every row of every domain. */
export const isUnscoped = (p: Principal): boolean => hasRole(p, 'operator', 'service');

/**
 * Who wrote a version (changedBy: a token subject) is shown to operators and services only: a subject
 * names a person or a backend, which a teacher, student, customer or analyst has no business seeing.
 */
export const maySeeWriters = (p: Principal): boolean => hasRole(p, 'operator', 'service');

/** Operator actions (publication health, replays, reconciliation, repairs, rebuilds, migrations). */
export const mayOperate = (p: Principal): boolean => hasRole(p, 'operator');
