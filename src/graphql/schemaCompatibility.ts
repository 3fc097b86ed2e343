// The schema check CI runs (test/schemaCompatibility.unit.spec.ts): the schema the code emits may add
// to the released contract (schema/schema.baseline.graphql) but not remove or change what clients use.
// A field, argument, input field or enum value may go only after a release that marked it @deprecated
// (its removal is then allowed); anything else graphql-js calls breaking fails the check. After a
// release, `npm run schema:baseline` makes the current schema the new baseline.
import { BreakingChangeType, buildSchema, findBreakingChanges, type GraphQLSchema } from 'graphql';

/** Removals that are fine when the baseline had deprecated the removed element. */
const REMOVALS = new Set<string>([
  BreakingChangeType.FIELD_REMOVED,
  BreakingChangeType.ARG_REMOVED,
  BreakingChangeType.VALUE_REMOVED_FROM_ENUM,
]);

/** The deprecation reason of `Type.field`, `Type.field(arg)` or `Enum.VALUE` in a schema, if any. */
function deprecationOf(schema: GraphQLSchema, description: string): string | null | undefined {
  // graphql-js describes removals as "Type.field was removed.", "Type.field arg x was removed." and
  // "VALUE was removed from enum type Enum.".
  const field = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*) was removed\.$/.exec(description);
  const arg = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*) arg ([A-Za-z_]\w*) was removed\.$/.exec(description);
  const value = /^([A-Za-z_]\w*) was removed from enum type ([A-Za-z_]\w*)\.$/.exec(description);
  const fieldsOf = (name: string) => {
    const t = schema.getType(name) as
      | {
          getFields?: () => Record<
            string,
            { deprecationReason?: string | null; args?: readonly { name: string; deprecationReason?: string | null }[] }
          >;
        }
      | undefined;
    return t?.getFields?.();
  };
  if (field) return fieldsOf(field[1]!)?.[field[2]!]?.deprecationReason;
  if (arg) return fieldsOf(arg[1]!)?.[arg[2]!]?.args?.find((a) => a.name === arg[3])?.deprecationReason;
  if (value)
    return (schema.getType(value[2]!) as { getValue?: (v: string) => { deprecationReason?: string | null } | undefined })?.getValue?.(
      value[1]!,
    )?.deprecationReason;
  return undefined;
}

/** What the current schema breaks for clients of the baseline (empty: compatible). */
export function breakingChanges(baselineSdl: string, currentSdl: string): string[] {
  const baseline = buildSchema(baselineSdl);
  return findBreakingChanges(baseline, buildSchema(currentSdl))
    .filter((c) => !(REMOVALS.has(c.type) && deprecationOf(baseline, c.description)))
    .map((c) => `${c.type}: ${c.description}`);
}
