// The test items (projects) a result can belong to, with the units each accepts and the plausible
// range per unit. Validation asks this catalogue; it is injected (ProjectCatalog) so a deployment can
// load its own items, and tests can use a small one. Ranges are inclusive, in the unit's own terms,
// written as decimal strings so they stay exact.
import { parseResult } from './decimal';

export interface UnitRule {
  unit: string;
  min: string;
  max: string;
  /** Decimals allowed for this unit (counts are whole numbers: 0). At most 3. */
  scale: number;
}

export interface ProjectRule {
  projectId: number;
  name: string;
  units: UnitRule[];
}

export interface ProjectCatalog {
  project(projectId: number): ProjectRule | undefined;
}

export function catalogOf(rules: ProjectRule[]): ProjectCatalog {
  const byId = new Map(rules.map((r) => [r.projectId, r]));
  for (const r of rules)
    for (const u of r.units) {
      if (!parseResult(u.min).ok || !parseResult(u.max).ok || u.scale < 0 || u.scale > 3)
        throw new TypeError(`bad unit rule for project ${r.projectId}`);
    }
  return { project: (id) => byId.get(id) };
}

/** The national student fitness test items Tidemark ships with. */
export const defaultProjectCatalog: ProjectCatalog = catalogOf([
  { projectId: 1, name: '50 m sprint', units: [{ unit: 's', min: '4.000', max: '30.000', scale: 2 }] },
  { projectId: 2, name: 'sit and reach', units: [{ unit: 'cm', min: '0.000', max: '60.000', scale: 1 }] },
  {
    projectId: 3,
    name: 'standing long jump',
    units: [
      { unit: 'm', min: '0.100', max: '4.000', scale: 3 },
      { unit: 'cm', min: '10.000', max: '400.000', scale: 1 },
    ],
  },
  { projectId: 4, name: 'one-minute rope skipping', units: [{ unit: 'count', min: '0', max: '400', scale: 0 }] },
  { projectId: 5, name: 'one-minute sit-ups', units: [{ unit: 'count', min: '0', max: '120', scale: 0 }] },
  { projectId: 6, name: 'pull-ups', units: [{ unit: 'count', min: '0', max: '100', scale: 0 }] },
  { projectId: 7, name: 'vital capacity', units: [{ unit: 'ml', min: '300', max: '10000', scale: 0 }] },
  { projectId: 8, name: '800 m run', units: [{ unit: 's', min: '90.000', max: '900.000', scale: 2 }] },
  { projectId: 9, name: '1000 m run', units: [{ unit: 's', min: '120.000', max: '900.000', scale: 2 }] },
  { projectId: 10, name: '50 m x 8 shuttle run', units: [{ unit: 's', min: '60.000', max: '600.000', scale: 2 }] },
]);
