import type { KnexMigration } from '../types';
import { m001StoreIdentity } from './001_store_identity';
import { pg002OutboxEvents } from './002_outbox_events';
import { m004EventPublications } from './004_event_publications';
import { m003Orders } from './003_orders';
import { m005PublicationReconcilerProgress } from './005_publication_reconciler_progress';
import { m006ReconciliationLedger } from './006_reconciliation_ledger';
import { m007OutboxDueAt } from './007_outbox_due_at';
import { m008ReconciliationScopes } from './008_reconciliation_scopes';
import { m009PublicationTraceparent } from './009_publication_traceparent';
import { m010OrderOwnership } from './010_order_ownership';
import { m011ReconciliationExclusions } from './011_reconciliation_exclusions';
import { m012RebuildShadowUuid } from './012_rebuild_shadow_uuid';
import { m013Erasures } from './013_erasures';
import { m014ReconciliationLedgerErasure } from './014_reconciliation_ledger_erasure';
import { m015OrderChannel } from './015_order_channel';

/**
 * Names migrations had before they were renumbered (three were 004): databases created under the old
 * names are brought to the new ones before migrating, so nothing runs twice (src/infra/migrate.ts).
 */
export const postgresRenamedMigrations: Readonly<Record<string, string>> = {
  '004_orders': '003_orders',
  '004_publication_reconciler_progress': '005_publication_reconciler_progress',
};

/** Every PostgreSQL migration, in order. Append new ones; never edit applied ones. */
export const postgresMigrations: KnexMigration[] = [
  m001StoreIdentity,
  pg002OutboxEvents,
  m003Orders,
  m004EventPublications,
  m005PublicationReconcilerProgress,
  m006ReconciliationLedger,
  m007OutboxDueAt,
  m008ReconciliationScopes,
  m009PublicationTraceparent,
  m010OrderOwnership,
  m011ReconciliationExclusions,
  m012RebuildShadowUuid,
  m013Erasures,
  m014ReconciliationLedgerErasure,
  m015OrderChannel,
];
