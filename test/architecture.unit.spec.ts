// The source layout's rules that a reviewer cannot see in one file: no import cycles in src (a cycle
// hides which module owns a concept), the composition root (src/app) on top, so no lower module knows
// how the process is assembled, and GraphQL lives in src/graphql only (type-graphql decorators nowhere
// else), so an API change touches one folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import madge from 'madge';

const root = join(__dirname, '..');

describe('source layout', () => {
  let graph: Awaited<ReturnType<typeof madge>>;
  beforeAll(async () => {
    graph = await madge(join(root, 'src'), {
      fileExtensions: ['ts'],
      tsConfig: join(root, 'tsconfig.json'),
      excludeRegExp: [/\.spec\.ts$/, /^console\//],
      includeNpm: true,
    });
  }, 60000);

  it('has no import cycle in src', () => {
    expect(graph.circular().filter((cycle) => !cycle.some((f) => f.includes('node_modules')))).toEqual([]);
  });

  it('keeps the composition root on top: only src/cli and src/main.ts import src/app', () => {
    const importers = Object.entries(graph.obj())
      // Files outside src (test support, reached from specs) may use the composition root: tests are outside the floors.
      .filter(([file, deps]) => !/^(app|cli|\.\.)\/|^main\.ts$/.test(file) && deps.some((d) => d.startsWith('app/')))
      .map(([file]) => file);
    expect(Object.keys(graph.obj()).filter((f) => f.startsWith('app/')).length).toBeGreaterThan(10); // it sees src/app
    expect(importers).toEqual([]);
  });

  it('imports type-graphql only under src/graphql', () => {
    const importers = Object.entries(graph.obj())
      .filter(([, deps]) => deps.some((d) => d.includes('node_modules/type-graphql/')))
      .map(([file]) => file);
    expect(importers.length).toBeGreaterThan(10); // the check sees the resolvers, so it can fail
    expect(importers.filter((f) => !f.startsWith('graphql/'))).toEqual([]);
  });
});

describe('README source layout', () => {
  it('names every folder of src, and no folder that is gone', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('Source layout (`src/`)'), readme.indexOf('Migrations are in'));
    const named = [...table.matchAll(/^\| `([a-z]+)\/` \|/gm)].map((m) => m[1]).sort();
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(named).toEqual(folders);
  });
});
