// The starters of each role, in start order (src/app/start.ts stops them in reverse).
import { startProjectorRole } from './starters/projector';
import { startKafkaFirstPublicationReconcilerRole } from './starters/publicationReconciler';
import { startScheduledReconciliationRole } from './wiring/reconciliation';
import { startErasureRole } from './wiring/erasure';
import { startRetentionCleanups } from './starters/retention';
import { startRelays } from './starters/relay';
import { startGatewayRole } from './starters/gateway';
import type { Role, RoleStarter } from './roles';

export const roleStarters: Record<Role, RoleStarter[]> = {
  gateway: [startGatewayRole],
  relay: [startRelays, startRetentionCleanups],
  projector: [startProjectorRole],
  reconciler: [startKafkaFirstPublicationReconcilerRole, startScheduledReconciliationRole, startErasureRole],
};
