// `npm run events:check` as a function of a directory, so a test can check an edited copy: the
// committed contracts (schema/events) must be exactly what the code generates (a contract is never
// changed in place: add a version), every version in code must have its file and every file a version
// in code (versions are never removed), and the versions of each domain must be compatible both ways
// for every pair (compatibility.ts). Each problem names domain, type, version and what is wrong.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { compatibilityIssues } from './compatibility';
import { contractFiles, type PublishedDomain } from './contractFiles';

const FILE = /^([a-z0-9]+)\/([A-Za-z0-9]+)\.v([1-9][0-9]*)\.json$/;

/** Every file under a directory, as slash-separated paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const p = join(d, name);
      return statSync(p).isDirectory() ? walk(p) : [relative(dir, p).split(sep).join('/')];
    });
  return walk(dir).sort();
}

/** "fitness/FitnessResultRecorded v2" for a contract file's path. */
function label(path: string): string {
  const m = FILE.exec(path);
  return m ? `${m[1]}/${m[2]} v${m[3]}` : path;
}

/** Every problem with the contracts in `dir` against these domains' code; empty when all is well. */
export function checkContracts(dir: string, domains: readonly PublishedDomain[]): string[] {
  const problems: string[] = [];
  const expected = contractFiles(domains);
  const committed = filesUnder(dir);
  for (const [path, content] of expected) {
    if (!committed.includes(path)) {
      problems.push(`${label(path)}: the code has this version but ${path} is not committed (run npm run events:generate and commit it)`);
    } else if (readFileSync(join(dir, path), 'utf8') !== content) {
      problems.push(
        `${label(path)}: the committed contract ${path} differs from what the code generates: a published contract never ` +
          'changes in place, add a new version instead (docs/events.md, "Changing an event")',
      );
    }
  }
  for (const path of committed)
    if (!expected.has(path))
      problems.push(
        FILE.test(path)
          ? `${label(path)}: ${path} is committed but the code has no such version (a version was removed; versions are never removed)`
          : `${path}: not a contract file (<domain>/<EventType>.v<N>.json) of any registered domain`,
      );
  for (const d of domains)
    for (const i of compatibilityIssues(d.contract))
      problems.push(
        `${i.domain}/${[...d.contract.eventTypes].sort().join('|')} v${i.from} -> v${i.to}: ${i.rule} incompatible: ${i.detail}` +
          (i.rule === 'FORWARD'
            ? ` (a version-${i.from} reader must accept every version-${i.to} event)`
            : ` (a version-${i.to} reader must read every version-${i.from} event through the upcasters)`),
      );
  return problems;
}
