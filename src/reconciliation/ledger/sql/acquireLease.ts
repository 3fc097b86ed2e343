// SQL: a named lease (the scheduled reconciliation runs in one reconciler process at a time).
//
// Locking: one upsert. ON CONFLICT takes the lease row's lock; the WHERE lets the current owner renew
// and anyone take an expired lease; times come from the database clock so processes with skewed
// clocks agree. RETURNING tells whether this caller holds the lease now.
import type { Knex } from 'knex';

export async function acquireLease(db: Knex, name: string, owner: string, ttlMs: number): Promise<boolean> {
  const r = await db.raw<{ rows: { owner: string }[] }>(
    `INSERT INTO reconciliation_leases (name, owner, expires_at) VALUES (?, ?, now() + (? * interval '1 millisecond'))
     ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
     WHERE reconciliation_leases.expires_at < now() OR reconciliation_leases.owner = EXCLUDED.owner
     RETURNING owner`,
    [name, owner.slice(0, 128), ttlMs],
  );
  return r.rows.length === 1;
}
