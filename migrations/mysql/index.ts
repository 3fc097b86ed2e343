import type { KnexMigration } from '../types';
import { m001ShardIdentity } from './001_shard_identity';

/** Every MySQL (fitness shard) migration, in order. Append new ones; never edit applied ones. */
export const mysqlMigrations: KnexMigration[] = [m001ShardIdentity];
