// Which long-running components each role starts. One process runs every role by default;
// `--roles relay` (or TIDEMARK_ROLES) runs a subset, so roles scale out as separate processes. Every
// role is built the same way: a starter receives the process's shared dependencies and returns
// something with `stop()` (the gateway also hands back its server and state-change hub).
import type { DevelopmentToken } from '../auth/developmentTokens';
import type { Registry } from 'prom-client';
import type { Settings } from '../config/settings';
import type { Gateway } from '../graphql/server';
import type { KafkaCircuit } from '../infra/kafka/kafkaCircuit';
import type { StateChangeHub } from '../publication/stateChanges/stateChangeHub';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import type { SchemaVersionGate } from '../publication/schemaVersionGate';
import type { ReconciliationService } from '../reconciliation/service';
import type { Logger } from '../shared/logger';
import type { Stoppable } from '../shared/lifecycle';
import type { ReadinessProbe } from './readiness';
import type { Resources } from './resources';

export type Role = Settings['roles'][number];

export interface RoleDeps {
  resources: Resources;
  logger: Logger;
  registry: Registry;
  instanceId: string;
  /** Where components report publication-state transitions (live operator view). */
  stateChanges: StateChangeSink;
  /** This process's belief about the Kafka cluster, shared by every publisher in it. */
  kafkaCircuit: KafkaCircuit;
  readiness: ReadinessProbe;
  /**
   * The process's one reconciliation service, built on first use and stopped by the composition root after
   * every role: the gateway and the reconciler share it, so one process has one repair producer and one
   * repair and rebuild rate limit, whatever roles it runs.
   */
  reconciliation(): ReconciliationService;
  /**
   * The process's schema version gate (which event schema version producers write), built on first use
   * and stopped by the composition root after every role that publishes.
   */
  schemaVersions(): SchemaVersionGate;
  /** The development tokens this process already minted (main.ts printed them), if any. */
  developmentTokens?: readonly DevelopmentToken[];
}

export interface RoleOutputs {
  gateway: Gateway;
  stateChangeHub: StateChangeHub;
}

export type RoleStarter = (deps: RoleDeps) => Promise<Stoppable & Partial<RoleOutputs>>;
