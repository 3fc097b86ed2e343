// Bearer tokens for e2e tests, signed with the test environment's secret.
import type { Role } from '../../src/auth/principal';
import { signToken } from '../../src/auth/tokens';
import type { Settings } from '../../src/config/settings';

export async function tokenFor(s: Settings, ...roles: Role[]): Promise<string> {
  return signToken(s.authJwtSecret!, { subject: `test-${roles.join('-')}`, roles }, { issuer: s.authIssuer, audience: s.authAudience });
}

export async function authHeader(s: Settings, ...roles: Role[]): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await tokenFor(s, ...roles)}` };
}
