// Which long-running components each role starts. One process runs every role by default;
// `--roles relay` (or TIDEMARK_ROLES) runs a subset, so roles scale out as separate processes.
// Each domain adds its starters here as it lands; every starter returns something with `stop()`.
import type { Registry } from 'prom-client';
import type { Settings } from '../config/settings';
import type { Logger } from '../shared/logger';
import type { Stoppable } from '../shared/lifecycle';
import type { Resources } from './resources';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import { startKafkaFirstRelayFor } from '../publication/kafkaFirst/wiring';
import { startOrderPublicationReconcilerRole } from '../reconciliation/publications/wiring';
import { startOutboxRelays } from '../relay/outbox/startOutboxRelays';
import { startRetentionCleanups } from '../relay/retention/retentionCleanup';
import { startProjectorRole } from '../projections/projectorRole';
import { startScheduledReconciliationRole } from '../reconciliation/wiring';

export type Role = Settings['roles'][number];

export interface RoleDeps {
  resources: Resources;
  logger: Logger;
  registry: Registry;
  instanceId: string;
  /** Where components report publication-state transitions (live operator view). */
  stateChanges: StateChangeSink;
}

export type RoleStarter = (deps: RoleDeps) => Promise<Stoppable>;

/** Background components per role. The gateway role's HTTP server is started by src/app/start.ts. */
export const roleStarters: Record<Role, RoleStarter[]> = {
  gateway: [],
  relay: [async (d) => startKafkaFirstRelayFor(d), startOutboxRelays, startRetentionCleanups],
  projector: [startProjectorRole],
  reconciler: [startOrderPublicationReconcilerRole, startScheduledReconciliationRole],
};
