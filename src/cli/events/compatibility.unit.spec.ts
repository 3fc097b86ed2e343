// The compatibility rules between event versions, on small contracts built here: what each kind of
// change does to the FORWARD (old reader, new event) and BACKWARD (new reader, old event via the
// upcasters) rules, and a break that only shows between versions 1 and 3.
import { z } from 'zod';
import type { EventContract, Upcaster } from '../../domains/contract/eventContract';
import { compatibilityIssues, type CompatibilityIssue } from './compatibility';
import { publishedDomains } from './contractFiles';

const v1 = z.object({
  id: z.number().int().min(1),
  unit: z.string().min(1).max(32),
  grade: z.number().int().min(0).max(100),
});

function contract(versions: z.ZodType[], upcasters: Upcaster[] = []): EventContract {
  return { domain: 'sample', label: 'sample', eventTypes: new Set(['SampleHappened']), versions: versions as [z.ZodType], upcasters };
}
const same = (from: number): Upcaster => ({ from, to: from + 1, up: (d) => d });
const lines = (issues: CompatibilityIssue[]) => issues.map((i) => `${i.rule} ${i.from}->${i.to} ${i.detail}`);

it('an added field that the upcaster fills is compatible both ways', () => {
  const v2 = v1.extend({ changedBy: z.string().min(1).nullable() });
  expect(compatibilityIssues(contract([v1, v2], [{ from: 1, to: 2, up: (d) => ({ ...d, changedBy: null }) }]))).toEqual([]);
});

it('a narrowed field: every old event no longer fits the new reader (BACKWARD), old readers still accept new events', () => {
  const v2 = v1.extend({ unit: z.string().min(1).max(16) });
  const issues = lines(compatibilityIssues(contract([v1, v2], [same(1)])));
  expect(issues).toEqual(['BACKWARD 1->2 data.unit: maxLength 32 is beyond 16']);
});

it('a widened field: an old reader refuses new events (FORWARD)', () => {
  const v2 = v1.extend({ grade: z.number().int().min(0).max(1000) });
  expect(lines(compatibilityIssues(contract([v1, v2], [same(1)])))).toEqual(['FORWARD 1->2 data.grade: maximum 1000 is outside 100']);
});

it('a removed field breaks old readers, whether they required it or not', () => {
  expect(lines(compatibilityIssues(contract([v1, v1.omit({ unit: true })], [same(1)])))).toEqual([
    'FORWARD 1->2 data.unit: removed (the old reader requires it)',
    'FORWARD 1->2 data.unit: removed (any value may now appear there)',
  ]);
  const optional = v1.extend({ note: z.string().optional() });
  const issues = lines(compatibilityIssues(contract([optional, v1], [same(1)])));
  expect(issues).toEqual(['FORWARD 1->2 data.note: removed (any value may now appear there)']);
});

it('a renamed field is a removed one', () => {
  const v2 = v1.omit({ unit: true }).extend({ measureUnit: z.string().min(1).max(32) });
  const up: Upcaster = { from: 1, to: 2, up: ({ unit, ...d }) => ({ ...d, measureUnit: unit }) };
  const issues = lines(compatibilityIssues(contract([v1, v2], [up])));
  expect(issues).toContain('FORWARD 1->2 data.unit: removed (the old reader requires it)');
  expect(issues).toContain('BACKWARD 1->2 data.unit: changed by the upcasters (a version-1 field must stay as it was)');
});

it('a retyped field fails both ways', () => {
  const v2 = v1.extend({ grade: z.string().max(3) });
  expect(lines(compatibilityIssues(contract([v1, v2], [{ from: 1, to: 2, up: (d) => ({ ...d, grade: String(d.grade) }) }])))).toEqual([
    'FORWARD 1->2 data.grade: retyped (string is not integer)',
    'BACKWARD 1->2 data.grade: retyped (integer is not string)',
    'BACKWARD 1->2 data.grade: changed by the upcasters (a version-1 field must stay as it was)',
  ]);
});

it('a nullable field made non-null, and an enum losing a value, break old or new readers', () => {
  const a = z.object({ channel: z.enum(['web', 'store']).nullable() });
  expect(lines(compatibilityIssues(contract([a, z.object({ channel: z.enum(['web', 'store', 'api']).nullable() })], [same(1)])))).toEqual([
    'FORWARD 1->2 data.channel: value(s) "api" no longer accepted',
  ]);
  expect(lines(compatibilityIssues(contract([a, z.object({ channel: z.enum(['web', 'store']) })], [same(1)])))).toEqual([
    'BACKWARD 1->2 data.channel: accepts only ["web","store"], not null',
    'BACKWARD 1->2 data.channel: the upcast event is not valid in version 2 (invalid option: expected one of "web"|"store")',
  ]);
});

it('a new required field needs an upcaster that fills it', () => {
  const v2 = v1.extend({ measuredAt: z.string().max(64).nullable() });
  expect(compatibilityIssues(contract([v1, v2], [{ from: 1, to: 2, up: (d) => ({ ...d, measuredAt: null }) }]))).toEqual([]);
  expect(lines(compatibilityIssues(contract([v1, v2], [same(1)])))).toEqual([
    'BACKWARD 1->2 data.measuredAt: required in version 2, absent in 1 and not filled by the upcasters',
  ]);
  expect(lines(compatibilityIssues(contract([v1, v2], [])))).toEqual(['BACKWARD 1->2 no upcaster chain 1->2 (missing 1->2)']);
  const wrong = { from: 1, to: 2, up: (d: Record<string, unknown>) => ({ ...d, measuredAt: 7 }) };
  expect(lines(compatibilityIssues(contract([v1, v2], [wrong])))).toEqual([
    'BACKWARD 1->2 data.measuredAt: the upcast event is not valid in version 2 (invalid input: expected string, received number)',
  ]);
});

it('an upcaster that throws is reported, not thrown', () => {
  const v2 = v1.extend({ label: z.string() });
  const up: Upcaster = { from: 1, to: 2, up: (d) => ({ ...d, label: (d.missing as string).toUpperCase() }) };
  expect(lines(compatibilityIssues(contract([v1, v2], [up])))).toEqual([
    expect.stringMatching(/^BACKWARD 1->2 the upcasters 1->2 threw on a sample version-1 event \(.+\)$/),
  ]);
});

it('every pair is checked: a break between versions 1 and 3 that neither step shows', () => {
  // v2 adds a channel; the 1->2 upcaster says 'unknown'. v3 adds the channel's group from a table that
  // forgot 'unknown': every version-2 event upcasts fine, a version-1 event does not reach version 3.
  const v2 = v1.extend({ channel: z.enum(['web', 'store', 'unknown']) });
  const v3 = v2.extend({ group: z.enum(['online', 'shop']) });
  const groups: Record<string, string> = { web: 'online', store: 'shop' };
  const c = contract(
    [v1, v2, v3],
    [
      { from: 1, to: 2, up: (d) => ({ ...d, channel: 'unknown' }) },
      { from: 2, to: 3, up: (d) => ({ ...d, ...(groups[d.channel as string] ? { group: groups[d.channel as string] } : {}) }) },
    ],
  );
  expect(lines(compatibilityIssues(c))).toEqual([
    'BACKWARD 1->3 data.group: required in version 3, absent in 1 and not filled by the upcasters',
  ]);
});

it('the real contracts are compatible', () => {
  for (const d of publishedDomains()) expect(compatibilityIssues(d.contract)).toEqual([]);
});
