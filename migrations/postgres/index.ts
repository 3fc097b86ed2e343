import type { KnexMigration } from '../types';
import { m001StoreIdentity } from './001_store_identity';

/** Every PostgreSQL migration, in order. Append new ones; never edit applied ones. */
export const postgresMigrations: KnexMigration[] = [m001StoreIdentity];
