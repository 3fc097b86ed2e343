// Phase 3 (LOAD) of a projection rebuild (rebuildRun.ts): the scope's authoritative latest state
// through the projector's own mapping into the shadow, rate-limited, in batches; and the quarantine of
// every live row whose content differs from the authoritative one at the same version.
import { canonicalLine, digestOf } from '../../domains/contract/canonical';
import { fieldsOf } from '../../domains/canonicalFields';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { quarantineContent, type QuarantinedContent } from '../ledger/sql/quarantine';
import type { Scope } from '../scope';
import type { ProjectionMapping } from '../target/projectionMapping';
import { scopeRowDigests } from '../target/sql/scopeRowDigests';
import { canonicalValuesOf, projectionLineOf } from './projectionLines';
import type { RebuildDeps } from './rebuildDeps';
import { splitErased } from '../erasedFilter';
import { noErasedAggregates } from '../../domains/contract/erasure';
import { eventSubjectRewriter, withPseudonyms } from '../../projections/erased/withPseudonyms';

/** What the VALIDATE phase records of the load. */
export interface Loaded {
  sourceRows: number;
  quarantined: number;
}

export async function loadScope(
  d: RebuildDeps,
  scope: Scope,
  m: ProjectionMapping,
  tables: { live: string; shadow: string },
  rebuildId: number,
): Promise<Loaded> {
  // Erased aggregates are never written back (../erasedFilter.ts): the source should no longer hold
  // them, but an erasure still running may not have reached it yet.
  const { kept } = await splitErased(d.compare.erased, scope.domain, await d.source.events(scope), (e) => e.aggregateId);
  // A pseudonymised customer's orders are loaded with the pseudonym (projections/erased/withPseudonyms.ts),
  // should the source not have been rewritten yet: the shadow never names the customer again.
  const guard = d.compare.erased ?? noErasedAggregates;
  const events = await withPseudonyms(
    guard,
    kept,
    (e) => ({ domain: scope.domain, aggregateId: e.aggregateId }),
    eventSubjectRewriter(scope.domain),
  );
  const fields = fieldsOf(scope.domain, 'CONTENT');
  const authoritative = new Map(
    events.map((e) => [`${e.aggregateId}\u0000${e.version}`, digestOf(canonicalLine(fields, canonicalValuesOf(e)))]),
  );
  const batch = d.insertBatchRows ?? 5000;
  for (let i = 0; i < events.length; i += batch) {
    const slice = events.slice(i, i + batch);
    await d.limiter.acquire(slice.length, d.compare.signal);
    await insertJsonEachRow(
      d.ch,
      d.database,
      tables.shadow,
      slice.map((e) => projectionLineOf(e, d.clock.now().getTime())),
    );
  }
  const bad: QuarantinedContent[] = (await scopeRowDigests(d.ch, d.database, tables.live, m, scope))
    .filter((row) => {
      const good = authoritative.get(`${row.id}\u0000${row.version}`);
      return good !== undefined && good !== row.digest;
    })
    .map((row) => ({ aggregateId: row.id, version: row.version, digest: row.digest }));
  await quarantineContent(d.ledger, scope.domain, rebuildId, bad, d.clock.now());
  return { sourceRows: events.length, quarantined: bad.length };
}
