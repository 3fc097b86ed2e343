// SQL: the latest authoritative state of each aggregate of a fitness scope on one shard (optionally
// only some buckets or ids), with its canonical digest and commit time.
//
// Locking: a plain non-locking read. A run at IDS/CONTENT level issues it inside the run's snapshot
// transaction (shardSnapshot.ts), so it sees the snapshot's versions; the current state of a few ids
// (projection ahead of the snapshot) and the rebuild's validation read it outside, with the revision
// checked around it. Lines (the canonical text) are returned only for the few rows whose differing
// fields are named.
import type { Knex } from 'knex';
import type { CompareLevel } from '../../../contract/canonicalFields';
import { mysqlCells } from '../../../contract/sqlCells';
import type { RecordState } from '../../../contract/sourceState';
import type { StateFilter } from '../../../contract/sourceReader';
import type { CampaignScope } from '../campaignScope';
import { fitnessLineSql, scopeRows } from './scopeRows';

export async function shardStates(db: Knex, scope: CampaignScope, level: CompareLevel, filter: StateFilter): Promise<RecordState[]> {
  const r = scopeRows(scope, filter);
  const line = fitnessLineSql(level);
  const [rows] = (await db.raw(
    `SELECT CAST(r.data_id AS CHAR) AS id, r.version, r.is_deleted, ${mysqlCells.digest(line)} AS digest,
            r.updated_at${filter.withLines ? `, ${line} AS line` : ''}
       FROM ${r.sql}`,
    r.bindings,
  )) as [{ id: string; version: number; is_deleted: number; digest: string; updated_at: Date; line?: string }[]];
  return rows.map((row) => ({
    id: String(row.id),
    version: Number(row.version),
    isDeleted: Number(row.is_deleted) === 1,
    digest: String(row.digest),
    commitMs: new Date(row.updated_at).getTime(),
    ...(row.line !== undefined ? { line: String(row.line) } : {}),
  }));
}
