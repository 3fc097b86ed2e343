// The ClickHouse UUID of a rebuild's shadow table (system.tables.uuid of its storage table), recorded
// right after the shadow is created. A rebuild whose process died is recovered by asking ClickHouse
// whether the swap happened (src/reconciliation/rebuild/recoverRebuilds.ts): on current releases
// (Atomic databases) EXCHANGE TABLES leaves both names in place either way, and only the UUID now
// under the live name tells. NULL on ClickHouse 18.16 and Ordinary databases (no UUIDs there; the swap
// is a RENAME and the retired table's existence tells instead) and on rebuilds recorded before this
// migration. See docs/reconciliation.md, "A rebuild whose process dies".
//
// Dialect: PostgreSQL, inside the migration's transaction. A nullable column without a default is
// metadata only: no rewrite of projection_rebuilds, no long lock.
import type { KnexMigration } from '../types';

export const m012RebuildShadowUuid: KnexMigration = {
  name: '012_rebuild_shadow_uuid',
  async up(db) {
    await db.raw('ALTER TABLE projection_rebuilds ADD COLUMN shadow_uuid uuid NULL');
  },
  async down(db) {
    await db.raw('ALTER TABLE projection_rebuilds DROP COLUMN shadow_uuid');
  },
};
