// The schema check: the emitted schema may grow, but a field, argument or enum value clients of the
// released contract (schema/schema.baseline.graphql) use may not disappear or change without having
// been deprecated first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printGatewaySchema } from '../src/graphql/schema';
import { breakingChanges } from '../src/graphql/schemaCompatibility';

const baselineFile = join(__dirname, '..', 'schema', 'schema.baseline.graphql');

it('the schema keeps every field, argument and type of the released contract (or deprecated it before removing it)', async () => {
  expect(breakingChanges(readFileSync(baselineFile, 'utf8'), await printGatewaySchema())).toEqual([]);
});

describe('the check itself', () => {
  const before = `
    type Query { a: Int, b(x: Int, y: Int, z: Int @deprecated(reason: "unused")): String, old: Int @deprecated(reason: "use a"), c: Color }
    enum Color { RED GREEN BLUE @deprecated(reason: "no") }`;

  it('accepts additions and the removal of deprecated elements', () => {
    const after = `
      type Query { a: Int, b(x: Int, y: Int): String, c: Color, added: Boolean }
      enum Color { RED GREEN }`;
    expect(breakingChanges(before, after)).toEqual([]);
  });

  it('refuses removals and changes of what was not deprecated', () => {
    const after = `
      type Query { a: String, b(x: Int): String, old: Int, c: Color }
      enum Color { RED BLUE }`;
    const found = breakingChanges(before, after);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^FIELD_CHANGED_KIND: Query\.a changed type from Int to String/),
        expect.stringMatching(/^ARG_REMOVED: Query\.b arg y was removed/),
        expect.stringMatching(/^VALUE_REMOVED_FROM_ENUM: GREEN was removed from enum type Color/),
      ]),
    );
    expect(found).toHaveLength(3);
  });
});
