// SQL: the quarantine of content a rebuild replaced: (aggregate, version, digest) of every physical
// row whose content differed from the authoritative state at the same version. Reconciliation sweeps
// rows with these digests out of the projection, so a late re-delivery from the defective path cannot
// bring them back for longer than one reconciliation of their scope.
//
// Locking: INSERT ... ON CONFLICT DO NOTHING (idempotent); reads are plain.
import type { Knex } from 'knex';
import type { Domain } from '../../../publication/event';

export interface QuarantinedContent {
  aggregateId: string;
  version: number;
  digest: string;
}

export async function quarantineContent(db: Knex, domain: Domain, rebuildId: number, rows: QuarantinedContent[], at: Date): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows
      .slice(i, i + 1000)
      .map((r) => ({ domain, aggregate_id: r.aggregateId, version: r.version, digest: r.digest, rebuild_id: rebuildId, created_at: at }));
    await db('projection_quarantine').insert(chunk).onConflict(['domain', 'aggregate_id', 'version', 'digest']).ignore();
  }
}

export async function quarantinedFor(db: Knex, domain: Domain, limit = 100000): Promise<QuarantinedContent[]> {
  const rows = (await db('projection_quarantine')
    .where({ domain })
    .select('aggregate_id', 'version', 'digest')
    .orderBy('id')
    .limit(limit)) as { aggregate_id: string; version: string | number; digest: string }[];
  return rows.map((r) => ({ aggregateId: r.aggregate_id, version: Number(r.version), digest: r.digest }));
}
