import type { ClickHouseMigration } from '../types';
import { ch001ProjectionCheckpoints } from './001_projection_checkpoints';

/** Every ClickHouse migration, in version order. Append new ones; never edit applied ones. */
export const clickhouseMigrations: ClickHouseMigration[] = [ch001ProjectionCheckpoints];
