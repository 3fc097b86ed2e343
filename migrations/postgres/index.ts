import type { KnexMigration } from '../types';
import { m001StoreIdentity } from './001_store_identity';
import { pg002OutboxEvents } from './002_outbox_events';
import { m004EventPublications } from './004_event_publications';
import { m004Orders } from './004_orders';
import { m004PublicationReconcilerProgress } from './004_publication_reconciler_progress';
import { m006ReconciliationLedger } from './006_reconciliation_ledger';
import { m007OutboxDueAt } from './007_outbox_due_at';

/** Every PostgreSQL migration, in order. Append new ones; never edit applied ones. */
export const postgresMigrations: KnexMigration[] = [m001StoreIdentity, pg002OutboxEvents, m004Orders, m004EventPublications, m004PublicationReconcilerProgress, m006ReconciliationLedger, m007OutboxDueAt];
