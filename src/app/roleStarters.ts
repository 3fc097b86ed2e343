// The starters of each role, in start order (src/app/start.ts stops them in reverse).
import { startProjectorRole } from '../projections/projectorRole';
import { startKafkaFirstPublicationReconcilerRole } from '../reconciliation/publications/wiring';
import { startScheduledReconciliationRole } from '../reconciliation/wiring';
import { startRetentionCleanups } from '../relay/retention/retentionCleanup';
import { startRelays } from '../relay/startRelays';
import { startGatewayRole } from './gatewayRole';
import type { Role, RoleStarter } from './roles';

export const roleStarters: Record<Role, RoleStarter[]> = {
  gateway: [startGatewayRole],
  relay: [startRelays, startRetentionCleanups],
  projector: [startProjectorRole],
  reconciler: [startKafkaFirstPublicationReconcilerRole, startScheduledReconciliationRole],
};
