// Each registered domain's canonical fields (src/domains/contract/canonicalFields.ts derives them from
// its projection table spec), looked up by the domain of a scope or an event: what the reconciliation
// engine compares, never naming a domain. A domain's own SQL derives from its own table spec instead.
import { canonicalFieldsOf, type CompareLevel } from './contract/canonicalFields';
import type { FieldSpec } from './contract/canonical';
import { projectionOf } from './projections';
import type { Domain } from '../shared/domain';

const derived = new Map<Domain, Record<CompareLevel, readonly FieldSpec[]>>();

/** A registered domain's canonical fields at a level, derived from its table spec on first use. */
export function fieldsOf(domain: Domain, level: CompareLevel): readonly FieldSpec[] {
  let f = derived.get(domain);
  if (!f) {
    const t = projectionOf(domain).table;
    f = { IDS: canonicalFieldsOf(t, 'IDS'), CONTENT: canonicalFieldsOf(t, 'CONTENT') };
    derived.set(domain, f);
  }
  return f[level];
}
