// The subset check on JSON Schema directly: the keywords zod emits, and "incompatible" whenever it
// cannot be sure (an unknown keyword, a value set split across branches).
import { subsetIssues } from './schemaSubset';

const str = { type: 'string', minLength: 1, maxLength: 10 };

it('accepts equal and narrower schemas', () => {
  expect(subsetIssues(str, str)).toEqual([]);
  expect(subsetIssues({ type: 'string', minLength: 2, maxLength: 5 }, str)).toEqual([]);
  expect(subsetIssues({ type: 'integer', minimum: 1 }, { type: 'number', minimum: 0 })).toEqual([]);
  expect(subsetIssues({ type: 'string', enum: ['a', 'bb'] }, str)).toEqual([]);
  expect(subsetIssues(str, { anyOf: [str, { type: 'null' }] })).toEqual([]);
  expect(
    subsetIssues({ type: 'object', properties: { a: str, b: str }, required: ['a', 'b'] }, { type: 'object', required: ['a'] }),
  ).toEqual([]);
});

it('refuses wider bounds, lost patterns and formats, and number for integer', () => {
  expect(subsetIssues({ type: 'string' }, str, 'x')).toEqual(['x: minLength 0 is below 1', 'x: maxLength none is beyond 10']);
  expect(subsetIssues({ type: 'string' }, { type: 'string', pattern: '^[A-Z]{3}$' }, 'x')).toEqual([
    'x: pattern "^[A-Z]{3}$" is not kept (undefined)',
  ]);
  expect(subsetIssues({ type: 'string', pattern: '^[A-Z]+$' }, { type: 'string', pattern: '^[A-Z]{3}$' }, 'x')).toHaveLength(1);
  expect(subsetIssues({ type: 'string' }, { type: 'string', format: 'date-time' }, 'x')).toHaveLength(1);
  expect(subsetIssues({ type: 'number' }, { type: 'integer' }, 'x')).toEqual(['x: retyped (number is not integer)']);
  expect(subsetIssues({ type: 'integer', exclusiveMinimum: 0 }, { type: 'integer', minimum: 0 })).toEqual([]);
  expect(subsetIssues({ type: 'integer', minimum: 0 }, { type: 'integer', exclusiveMinimum: 0 }, 'x')).toEqual([
    'x: minimum 0 is outside 0',
  ]);
});

it('checks arrays item by item and objects field by field', () => {
  const arr = (items: object, maxItems?: number) => ({ type: 'array', items, ...(maxItems ? { maxItems } : {}) });
  expect(subsetIssues(arr(str, 5), arr(str, 10))).toEqual([]);
  expect(
    subsetIssues({ type: 'object', properties: { a: str }, additionalProperties: false }, { type: 'object', properties: { a: str } }),
  ).toEqual([]);
  expect(subsetIssues(arr({ type: 'string' }, 20), arr(str, 10), 'xs')).toEqual([
    'xs[]: minLength 0 is below 1',
    'xs[]: maxLength none is beyond 10',
    'xs: maxItems 20 is beyond 10',
  ]);
  const closed = { type: 'object', properties: { a: str }, additionalProperties: false };
  expect(subsetIssues({ type: 'object', properties: { a: str, b: str } }, closed, 'd')).toEqual([
    'd.b: added, but the other schema allows no other fields',
    'd.*: any other field may appear, the other schema allows none',
  ]);
});

it('says incompatible when it cannot be sure', () => {
  expect(subsetIssues({ type: 'object', patternProperties: {} }, { description: 'anything' })).toEqual([]);
  expect(subsetIssues({ type: 'object', patternProperties: {} }, { type: 'object' }, 'd')).toEqual([
    'd: cannot compare keyword(s) patternProperties (treated as incompatible)',
  ]);
  // 'a' or 'b' fits neither branch whole, though the union of the branches holds both.
  const split = { anyOf: [{ const: 'a' }, { const: 'b' }] };
  expect(subsetIssues({ type: 'string', enum: ['a', 'b'] }, split)).toEqual([]);
  expect(subsetIssues({ type: 'string', maxLength: 1, pattern: '^[ab]$' }, split, 'x')).toHaveLength(1);
});
