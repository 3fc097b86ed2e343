// The floors of the house, as a test: a top-level folder of src may import only folders on its own
// floor or below, and two folders never import each other both ways. The floors are the intended
// architecture (docs/architecture.md): ground helpers and config at the bottom, engine adapters, the
// publication tables' owner, the domains, the machinery that loops over domains, the API, the
// composition root, and the command line on top. A reviewer cannot see an upward import in one file;
// this test can. Type-only imports count: they couple the floors just the same.
import { join } from 'node:path';
import madge from 'madge';

const root = join(__dirname, '..');

/** Bottom to top. */
const FLOORS: readonly (readonly string[])[] = [
  ['shared', 'config'],
  ['infra', 'metrics', 'auth', 'devstack'],
  ['publication'],
  ['domains'],
  ['relay', 'projections', 'reconciliation', 'erasure'],
  ['graphql'],
  ['app'],
  ['cli', 'main.ts'],
];

/**
 * Imports that still run against the floors, each to be removed (issue 31). The test fails when one
 * of them is gone, so the list only shrinks: delete the line with the import.
 */
const KNOWN_UPWARD: readonly string[] = [];

const floorOf = new Map<string, number>(FLOORS.flatMap((names, i) => names.map((n): [string, number] => [n, i])));

/** 'projections/read/readModels.ts' -> 'projections'; 'main.ts' -> 'main.ts'. */
const folderOf = (file: string): string => file.split('/')[0] ?? file;

describe('floors of src', () => {
  let edges: Map<string, Set<string>>;
  beforeAll(async () => {
    const graph = await madge(join(root, 'src'), {
      fileExtensions: ['ts'],
      tsConfig: join(root, 'tsconfig.json'),
      excludeRegExp: [/\.spec\.ts$/, /^console\//],
    });
    edges = new Map();
    for (const [file, deps] of Object.entries(graph.obj())) {
      for (const dep of deps) {
        const [from, to] = [folderOf(file), folderOf(dep)];
        // Files outside src (migrations are data the runner reads; test support is not shipped) and
        // packages have no floor here.
        if (from === to || [file, dep].some((f) => f.startsWith('..') || f.includes('node_modules'))) continue;
        const key = `${from} -> ${to}`;
        edges.set(key, (edges.get(key) ?? new Set()).add(`${file} -> ${dep}`));
      }
    }
  }, 60000);

  it('places every top-level folder of src on a floor', () => {
    const unplaced = [...edges.keys()].flatMap((e) => e.split(' -> ')).filter((f) => !floorOf.has(f));
    expect([...new Set(unplaced)]).toEqual([]);
    expect(edges.size).toBeGreaterThan(20); // the graph is seen, so the rules below can fail
  });

  it('imports only down or sideways', () => {
    const upward = [...edges.entries()]
      .filter(([e]) => {
        const [from, to] = e.split(' -> ') as [string, string];
        return (floorOf.get(to) ?? 0) > (floorOf.get(from) ?? 0);
      })
      .flatMap(([, files]) => [...files])
      .filter((f) => !KNOWN_UPWARD.includes(f))
      .sort();
    expect(upward).toEqual([]);
  });

  it('has no pair of folders importing each other both ways', () => {
    const both = [...edges.keys()].filter((e) => {
      const [from, to] = e.split(' -> ');
      return from! < to! && edges.has(`${to} -> ${from}`);
    });
    const excused = (e: string): boolean => [...(edges.get(e) ?? [])].every((f) => KNOWN_UPWARD.includes(f));
    const reverse = (e: string): string => e.split(' -> ').reverse().join(' -> ');
    const explained = both.filter((e) => !excused(e) && !excused(reverse(e)));
    expect(explained).toEqual([]);
  });

  it('still has every import the known list excuses', () => {
    const all = new Set([...edges.values()].flatMap((files) => [...files]));
    expect(KNOWN_UPWARD.filter((f) => !all.has(f))).toEqual([]);
  });
});
