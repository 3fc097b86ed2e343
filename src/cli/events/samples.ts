// Sample values of a JSON Schema (the subset zod emits), to try upcasters on: one "full" value (every
// property, the first branch of each anyOf, e.g. the non-null one) and one "minimal" value (required
// properties only, the last branch, e.g. null). Throws when it cannot build a value it is sure of (a
// pattern none of its candidates match): the caller then reports the upcasters as unchecked.
import type { JsonSchema } from './schemaSubset';

type Obj = { readonly [keyword: string]: unknown };
type Mode = 'full' | 'minimal';

/** Strings tried against a `pattern`, shortest first (the contracts' patterns are simple codes). */
const CANDIDATES = ['AAA', 'a', 'A', '0', 'x1', '2026-01-01T00:00:00.000Z', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'];

export function sampleValues(s: JsonSchema): unknown[] {
  return [sample(s, 'full', '(root)'), sample(s, 'minimal', '(root)')];
}

function sample(s: JsonSchema, mode: Mode, at: string): unknown {
  if (typeof s === 'boolean') {
    if (!s) throw new Error(`${at} accepts no value`);
    return null;
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf as JsonSchema[];
    return sample(mode === 'full' ? branches[0]! : branches[branches.length - 1]!, mode, at);
  }
  const type = Array.isArray(s.type) ? (s.type[0] as string) : (s.type as string | undefined);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return mode === 'full';
    case 'integer':
    case 'number':
      return numberSample(s, at);
    case 'string':
      return stringSample(s, at);
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const n = mode === 'full' ? Math.max(min, 1) : min;
      return Array.from({ length: n }, () => sample((s.items as JsonSchema | undefined) ?? true, mode, `${at}[]`));
    }
    case 'object':
    case undefined: {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((s.required as string[] | undefined) ?? []);
      const keys = Object.keys(props).filter((k) => mode === 'full' || required.has(k));
      return Object.fromEntries(keys.map((k) => [k, sample(props[k]!, mode, `${at}.${k}`)]));
    }
    default:
      throw new Error(`${at} has type ${String(type)}`);
  }
}

function numberSample(s: Obj, at: string): number {
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
  const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : Infinity;
  const v = Math.max(min, Math.min(1, max));
  if (v > max) throw new Error(`${at} has no number to sample`);
  return Math.ceil(v);
}

function stringSample(s: Obj, at: string): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const fits = (v: string) => v.length >= min && v.length <= max && (typeof s.pattern !== 'string' || new RegExp(s.pattern, 'u').test(v));
  const found = [...CANDIDATES, 'a'.repeat(Math.max(min, 1))].find(fits);
  if (found === undefined) throw new Error(`${at}: no sample string fits its pattern/length`);
  return found;
}
