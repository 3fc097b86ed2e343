// Bearer tokens for e2e tests, signed with the test environment's secret.
import type { Principal, Role } from '../../src/auth/principal';
import { signToken } from '../../src/auth/tokens';
import type { Settings } from '../../src/config/settings';

/** A token of unscoped roles (operator, analyst, service: test-service is listed in AUTH_SERVICE_SUBJECTS). */
export async function tokenFor(s: Settings, ...roles: Role[]): Promise<string> {
  return signToken(s.authJwtSecret!, { subject: `test-${roles.join('-')}`, roles }, { issuer: s.authIssuer, audience: s.authAudience });
}

export async function authHeader(s: Settings, ...roles: Role[]): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await tokenFor(s, ...roles)}` };
}

/** A token for any principal, scope claims included (teacher school_ids, customer customer_id, ...). */
export async function authHeaderFor(s: Settings, p: Principal): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await signToken(s.authJwtSecret!, p, { issuer: s.authIssuer, audience: s.authAudience })}` };
}
