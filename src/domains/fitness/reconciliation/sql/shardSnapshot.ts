// SQL: open a consistent snapshot of one shard for a reconciliation run, and read the scope's
// revision in it.
//
// Isolation: a REPEATABLE READ transaction (`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ; BEGIN`)
// that only reads. InnoDB fixes the transaction's read view at its first consistent read, which is
// the revision read issued at once here, before anything else of the run: from then on every read
// through the returned transaction (revision, counts, buckets, states, live rows and deletion log
// alike) sees the shard as it was at that moment, whatever commits meanwhile. This is what MySQL's
// `START TRANSACTION WITH CONSISTENT SNAPSHOT` does in one statement; knex opens its transactions with
// BEGIN, and a START TRANSACTION sent inside one would commit it and start another without the
// isolation level set for it, so the first read takes its place. Not `READ ONLY`: knex writes
// `ISOLATION LEVEL … READ ONLY` without the comma MariaDB 10.11 requires (MySQL 8 accepts both).
//
// Locking: none. The snapshot is MVCC: writers are never blocked, only purge of the row versions the
// view still needs waits until the transaction ends (seconds: one run). Each shard has its own
// snapshot, taken within milliseconds of the others; an aggregate lives on exactly one shard, so each
// aggregate's version is still one consistent fact, which is all the per-aggregate verdicts need.
// MariaDB 10.11 and MySQL 8 behave alike here.
import type { Knex } from 'knex';
import type { SourceRevision } from '../../../contract/sourceState';
import type { CampaignScope } from '../campaignScope';
import { shardRevision } from './sourceRevision';

export async function openShardSnapshot(db: Knex, scope: CampaignScope): Promise<{ trx: Knex.Transaction; revision: SourceRevision }> {
  const trx = await db.transaction({ isolationLevel: 'repeatable read' });
  try {
    return { trx, revision: await shardRevision(trx, scope) };
  } catch (err) {
    await trx.rollback().catch(() => undefined);
    throw err;
  }
}
