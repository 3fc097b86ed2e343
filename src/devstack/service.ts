import knex, { type Knex } from 'knex';
import type { Settings } from '../config/settings';
import { knexLog } from '../infra/sql/knexLog';

/** One engine the local stack manager can check, bring up (idempotently) and stop. */
export interface StackService {
  name: string;
  address: string;
  /** True when the engine answers and is usable by Tidemark. */
  check(): Promise<boolean>;
  /** Installs/starts what is missing and provisions users/databases/topics. Safe to run twice. */
  up(): Promise<void>;
  /** Stops the engine only if this stack manager started it. Machine services are left running. */
  down(): Promise<'stopped' | 'not-ours' | 'not-running'>;
}

export interface StackContext {
  settings: Settings;
  /** Absolute stack folder (data, configs, logs, pid files). */
  dir: string;
  /** Absolute repository root (for devstack/ templates and the Kafka pom). */
  root: string;
  log(line: string): void;
}

/** A one-connection knex for probing and provisioning an engine (engines still starting fail on purpose). */
export function probeKnex(client: 'mysql2' | 'pg', connection: Knex.StaticConnectionConfig): Knex {
  return knex({ client, connection, pool: { min: 0, max: 1 }, log: knexLog });
}
