// Who is calling, and what each role may do. Roles are flat, with one rule of precedence:
// operator may do everything; client may change data; analyst may read reports.
export type Role = 'client' | 'operator' | 'analyst';
export const ROLES: readonly Role[] = ['client', 'operator', 'analyst'];

export interface Principal {
  subject: string;
  roles: Role[];
}

/** Access levels the schema asks for (@Authorized(level) on a resolver in src/graphql). */
export type AccessLevel =
  | 'read' // any authenticated caller
  | 'write' // client or operator
  | 'report' // analyst or operator
  | 'operate'; // operator only

const GRANTS: Record<AccessLevel, readonly Role[]> = {
  read: ROLES,
  write: ['client', 'operator'],
  report: ['analyst', 'operator'],
  operate: ['operator'],
};

export function mayAccess(p: Principal, level: AccessLevel): boolean {
  return p.roles.some((r) => GRANTS[level].includes(r));
}
