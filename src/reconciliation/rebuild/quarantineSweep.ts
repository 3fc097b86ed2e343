// The sweep that keeps content a rebuild replaced from coming back: before each target scan, rows
// of the scope carrying a quarantined (aggregate, version, digest) are deleted, exactly those rows
// (a correct row of the same version has another digest and stays). Each sweep that removed
// something is an audited QUARANTINE_SWEEP repair. Without quarantine entries for the domain this
// is one PostgreSQL read and nothing else.
import type { Knex } from 'knex';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ClickHouseLayout } from '../../infra/clickhouse/layout';
import { list, str, uint } from '../../infra/clickhouse/literal';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { clickhouseCells } from '../../domains/contract/sqlCells';
import { quarantinedFor } from '../ledger/sql/quarantine';
import { insertRepairs } from '../ledger/sql/repairRows';
import type { ReconciliationMetrics } from '../metrics';
import { scopeJson, scopeKey, type Scope } from '../scope';
import { projectionMappingOf } from '../target/projectionMapping';
import { countRows, deleteRows } from '../target/sql/deleteRows';

export interface SweepDeps {
  ledger: Knex;
  ch: ClickHouseClient;
  database: string;
  layout: ClickHouseLayout;
  clock: Clock;
  logger: Logger;
  metrics: ReconciliationMetrics;
}

export async function sweepQuarantine(d: SweepDeps, scope: Scope): Promise<number> {
  const q = await quarantinedFor(d.ledger, scope.domain);
  if (q.length === 0) return 0;
  const m = projectionMappingOf(scope.domain);
  let removed = 0;
  for (let i = 0; i < q.length; i += 1000) {
    const chunk = q.slice(i, i + 1000);
    const ids = m.idsWhere([...new Set(chunk.map((c) => c.aggregateId))]);
    const tuples = list(chunk, (c) => `(${m.idLiteral(c.aggregateId)}, ${uint(c.version)}, ${str(c.digest)})`);
    const where = `(${m.scopeWhere(scope)}) AND ${ids} AND (${m.idColumn}, version, ${clickhouseCells.digest(m.line('CONTENT'))}) IN ${tuples}`;
    const n = await countRows(d.ch, d.database, m.table, where);
    if (n === 0) continue;
    await deleteRows(d.ch, d.layout, d.database, m.table, where);
    removed += n;
    const [r] = await insertRepairs(
      d.ledger,
      [
        {
          discrepancyId: null,
          domain: scope.domain,
          scopeKey: scopeKey(scope),
          scope: scopeJson(scope),
          action: 'QUARANTINE_SWEEP',
          reason: 'content replaced by a rebuild reappeared',
          aggregateId: null,
          sourceVersion: null,
          targetVersion: null,
          eventId: null,
          rebuildId: null,
          requestedBy: 'reconciler',
          outcome: 'COMPLETED',
          outcomeNote: `removed ${n} row(s) carrying quarantined content`,
          verification: 'NOT_APPLICABLE',
        },
      ],
      d.clock.now(),
    );
    d.metrics.repairs.inc({ domain: scope.domain, action: r!.action, outcome: r!.outcome });
    d.logger.warn({ scope: scopeKey(scope), rows: n }, 'quarantined content reappeared in the projection and was removed');
  }
  return removed;
}
