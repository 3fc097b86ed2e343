// The real check against the committed contracts: a copy of schema/events passes; the same copy with
// a contract edited in place, a version's file missing or a file for a version the code does not have
// fails naming domain, type and version. Also what `npm run events:generate` would write is committed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkContracts } from './checkContracts';
import { publishedDomains } from './contractFiles';

const committed = join(__dirname, '..', '..', '..', 'schema', 'events');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidemark-events-'));
  cpSync(committed, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('the committed contracts match the code (run `npm run events:generate` if this fails) and pass as a copy', () => {
  expect(checkContracts(committed, publishedDomains())).toEqual([]);
  expect(checkContracts(dir, publishedDomains())).toEqual([]);
});

it('a contract changed in place fails: add a new version instead', () => {
  const file = join(dir, 'orders', 'OrderPlaced.v1.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { properties: { data: { properties: Record<string, { maxLength?: number }> } } };
  schema.properties.data.properties.customerId!.maxLength = 100;
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  expect(checkContracts(dir, publishedDomains())).toEqual([
    'orders/OrderPlaced v1: the committed contract orders/OrderPlaced.v1.json differs from what the code generates: a published ' +
      'contract never changes in place, add a new version instead (docs/events.md, "Changing an event")',
  ]);
});

it('a version without its file, and a file without its version, fail', () => {
  unlinkSync(join(dir, 'fitness', 'FitnessResultDeleted.v2.json'));
  writeFileSync(join(dir, 'fitness', 'FitnessResultDeleted.v3.json'), '{}\n');
  writeFileSync(join(dir, 'notes.txt'), 'hello\n');
  expect(checkContracts(dir, publishedDomains())).toEqual([
    'fitness/FitnessResultDeleted v2: the code has this version but fitness/FitnessResultDeleted.v2.json is not committed ' +
      '(run npm run events:generate and commit it)',
    'fitness/FitnessResultDeleted v3: fitness/FitnessResultDeleted.v3.json is committed but the code has no such version ' +
      '(a version was removed; versions are never removed)',
    'notes.txt: not a contract file (<domain>/<EventType>.v<N>.json) of any registered domain',
  ]);
});

it('the CLI exits 1 naming the problem for an edited copy, 0 for an unedited one', () => {
  const root = join(__dirname, '..', '..', '..');
  const run = () =>
    spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['src/cli/eventsCheck.ts', '--dir', dir], { cwd: root, encoding: 'utf8' });
  const clean = run();
  expect([clean.status, clean.stdout]).toEqual([0, expect.stringContaining('match the code and every version pair is compatible')]);
  const file = join(dir, 'fitness', 'FitnessResultRecorded.v2.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"maxLength": 40', '"maxLength": 41'));
  const edited = run();
  expect(edited.status).toBe(1);
  expect(edited.stderr).toContain(
    '- fitness/FitnessResultRecorded v2: the committed contract fitness/FitnessResultRecorded.v2.json differs',
  );
});
