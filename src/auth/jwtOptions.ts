// The token options the settings describe, in one place, so the gateway's verifier, the development
// tokens and `tidemark token` agree on the issuer, audience and claim names: a token minted here is
// written under the claim names the gateway reads (AUTH_ROLES_CLAIM, AUTH_*_CLAIM).
import type { JwtSettings } from '../config/slices';
import type { JwtOptions } from './tokens';

export type { JwtSettings };

export function jwtOptionsOf(s: JwtSettings): JwtOptions {
  return {
    issuer: s.authIssuer,
    audience: s.authAudience,
    rolesClaim: s.authRolesClaim,
    algorithms: s.authAlgorithms,
    scopeClaims: { customerId: s.authCustomerIdClaim, schoolIds: s.authSchoolIdsClaim, userId: s.authUserIdClaim },
    serviceSubjects: s.authServiceSubjects,
  };
}
