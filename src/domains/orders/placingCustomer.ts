// Whose order a caller places, from its principal and the command (ordersPolicy's write scope,
// ./policy.ts). A customer places only for itself: it may omit customerId (its token's customer_id
// is used) and any other customerId is FORBIDDEN. Operators and services place for anyone and must
// say for whom (VALIDATION_FAILED when omitted); roles without order writes are FORBIDDEN. Applied by
// the service before anything is written, so a refused command changes nothing.
import { outOfScope, scopeFor } from '../../auth/access';
import { hasRole, type Principal } from '../../auth/principal';
import { OrderValidationError, type PlaceOrderCommand } from './order';
import { inOrderScope, ordersPolicy } from './policy';

export function placingCustomer(cmd: Pick<PlaceOrderCommand, 'customerId'>, actor: Principal): string {
  const scope = scopeFor(ordersPolicy, actor, 'write');
  const given = cmd.customerId ?? undefined;
  if (given === undefined) {
    if (hasRole(actor, 'customer') && actor.customerId !== undefined) return actor.customerId;
    throw new OrderValidationError('customerId', 'REQUIRED', 'customerId is required for operators and services');
  }
  // Validation of the text itself (length, characters) stays in decidePlaceOrder.
  if (!inOrderScope(scope, given)) throw outOfScope('an order for another customer');
  return given;
}
