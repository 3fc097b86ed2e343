// Whether every value one JSON Schema accepts is accepted by another (sub ⊆ sup): the FORWARD rule
// of the event contracts (an old reader, schema i, must accept every version-j event). A conservative
// structural check of the subset zod emits (type, properties, required, additionalProperties,
// enum/const, anyOf for nullable, string and number bounds, pattern/format, array items/bounds): it
// can say "incompatible" for schemas that are in fact compatible, never the reverse. Anything it
// does not understand is reported as unsupported. Written here because the npm libraries we looked at
// (json-schema-diff) ignore `pattern` and `format`, so a narrowed pattern would pass (docs/events.md).
import Ajv2020 from 'ajv/dist/2020';

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };
type Obj = { readonly [keyword: string]: unknown };

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);
const UNDERSTOOD = new Set([
  ...ANNOTATIONS,
  ...['type', 'enum', 'const', 'anyOf', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems'],
  ...['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
]);
const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;

// Validates the finite values of an enum/const against the other schema exactly.
const ajv = new Ajv2020({ strict: false, validateFormats: false });

const isObj = (s: unknown): s is Obj => typeof s === 'object' && s !== null && !Array.isArray(s);
const asObj = (s: JsonSchema): Obj => (s === true ? {} : s === false ? { not: {} } : s);
const show = (v: unknown): string => JSON.stringify(v);

/**
 * Why `sub` is not (provably) a subset of `sup`, one line per reason naming the field path; empty when
 * every value valid for `sub` is valid for `sup`.
 */
export function subsetIssues(sub: JsonSchema, sup: JsonSchema, path = ''): string[] {
  if (sub === false || sup === true) return [];
  const a = asObj(sub);
  const b = asObj(sup);
  const at = path || '(root)';
  if (Object.keys(b).every((k) => ANNOTATIONS.has(k))) return [];
  const unknown = [...Object.keys(a), ...Object.keys(b)].filter((k) => !UNDERSTOOD.has(k));
  if (unknown.length) return [`${at}: cannot compare keyword(s) ${[...new Set(unknown)].join(', ')} (treated as incompatible)`];
  // A finite set of values: check each against the other schema exactly.
  const values = 'const' in a ? [a.const] : Array.isArray(a.enum) ? a.enum : undefined;
  if (values) {
    const valid = ajv.compile(stripAnnotations(b));
    const refused = values.filter((v) => !valid(v));
    return refused.length ? [`${at}: value(s) ${refused.map(show).join(', ')} no longer accepted`] : [];
  }
  if (Array.isArray(a.anyOf)) return (a.anyOf as JsonSchema[]).flatMap((branch) => subsetIssues(branch, sup, path));
  if (Array.isArray(b.anyOf)) {
    const branches = b.anyOf as JsonSchema[];
    const rest = Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'anyOf'));
    // sub must fit one branch whole (sound, not complete: a value set split across branches is refused).
    const fits = branches.some((branch) => subsetIssues(sub, branch, path).length === 0);
    if (!fits) return [`${at}: ${describe(a)} is not accepted by any of ${branches.map((x) => describe(asObj(x))).join(' | ')}`];
    return Object.keys(rest).length ? subsetIssues(sub, rest, path) : [];
  }
  if ('const' in b || 'enum' in b) return [`${at}: accepts only ${show(b.const ?? b.enum)}, not ${describe(a)}`];
  const subTypes = typesOf(a);
  const supTypes = typesOf(b);
  const issues: string[] = [];
  for (const t of subTypes) {
    const ok = supTypes.includes(t) || (t === 'integer' && supTypes.includes('number'));
    if (!ok) {
      issues.push(`${at}: retyped (${t} is not ${supTypes.join('|')})`);
      continue;
    }
    if (t === 'string') issues.push(...stringIssues(a, b, at));
    if (t === 'number' || t === 'integer') issues.push(...numberIssues(a, b, at, t, supTypes));
    if (t === 'array') issues.push(...arrayIssues(a, b, path));
    if (t === 'object') issues.push(...objectIssues(a, b, path));
  }
  return [...new Set(issues)];
}

function stripAnnotations(s: Obj): Obj {
  return Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$schema' && k !== '$id'));
}

function typesOf(s: Obj): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  return [...ALL_TYPES];
}

function describe(s: Obj): string {
  if ('const' in s) return show(s.const);
  if (Array.isArray(s.enum)) return `one of ${show(s.enum)}`;
  return typeof s.type === 'string' || Array.isArray(s.type) ? [s.type].flat().join('|') : 'any value';
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function stringIssues(a: Obj, b: Obj, at: string): string[] {
  const out: string[] = [];
  const [aMin, bMin] = [num(a.minLength) ?? 0, num(b.minLength) ?? 0];
  if (aMin < bMin) out.push(`${at}: minLength ${aMin} is below ${bMin}`);
  const [aMax, bMax] = [num(a.maxLength), num(b.maxLength)];
  if (bMax !== undefined && (aMax === undefined || aMax > bMax)) out.push(`${at}: maxLength ${aMax ?? 'none'} is beyond ${bMax}`);
  if (b.pattern !== undefined && a.pattern !== b.pattern) out.push(`${at}: pattern ${show(b.pattern)} is not kept (${show(a.pattern)})`);
  if (b.format !== undefined && a.format !== b.format) out.push(`${at}: format ${show(b.format)} is not kept (${show(a.format)})`);
  return out;
}

/** A bound as (value, exclusive); the sub's must lie inside the sup's. */
function bound(s: Obj, side: 'min' | 'max'): [number, boolean] | undefined {
  const inclusive = num(side === 'min' ? s.minimum : s.maximum);
  const exclusive = num(side === 'min' ? s.exclusiveMinimum : s.exclusiveMaximum);
  if (exclusive === undefined) return inclusive === undefined ? undefined : [inclusive, false];
  if (inclusive === undefined) return [exclusive, true];
  const tighter = side === 'min' ? exclusive >= inclusive : exclusive <= inclusive;
  return tighter ? [exclusive, true] : [inclusive, false];
}

function inside(x: [number, boolean] | undefined, y: [number, boolean], side: 'min' | 'max'): boolean {
  if (x === undefined) return false;
  if (x[0] === y[0]) return !y[1] || x[1];
  return side === 'min' ? x[0] > y[0] : x[0] < y[0];
}

function numberIssues(a: Obj, b: Obj, at: string, t: string, supTypes: string[]): string[] {
  const out: string[] = [];
  if (t === 'number' && !supTypes.includes('number')) out.push(`${at}: retyped (number is not accepted by integer)`);
  for (const side of ['min', 'max'] as const) {
    const [x, y] = [bound(a, side), bound(b, side)];
    if (!y) continue;
    if (!inside(x, y, side)) out.push(`${at}: ${side}imum ${x ? x[0] : 'none'} is outside ${y[0]}`);
  }
  const m = num(b.multipleOf);
  const k = num(a.multipleOf);
  if (m !== undefined && !(k !== undefined && Number.isInteger(k / m))) out.push(`${at}: multipleOf ${m} is not kept`);
  return out;
}

function arrayIssues(a: Obj, b: Obj, path: string): string[] {
  const at = path || '(root)';
  const out: string[] = [];
  if (b.items !== undefined) out.push(...subsetIssues((a.items as JsonSchema) ?? true, b.items as JsonSchema, `${path}[]`));
  if ((num(a.minItems) ?? 0) < (num(b.minItems) ?? 0)) out.push(`${at}: minItems ${num(a.minItems) ?? 0} is below ${num(b.minItems)}`);
  const [aMax, bMax] = [num(a.maxItems), num(b.maxItems)];
  if (bMax !== undefined && (aMax === undefined || aMax > bMax)) out.push(`${at}: maxItems ${aMax ?? 'none'} is beyond ${bMax}`);
  return out;
}

function objectIssues(a: Obj, b: Obj, path: string): string[] {
  const out: string[] = [];
  const field = (k: string) => (path ? `${path}.${k}` : k);
  const aProps = (isObj(a.properties) ? a.properties : {}) as Record<string, JsonSchema>;
  const bProps = (isObj(b.properties) ? b.properties : {}) as Record<string, JsonSchema>;
  const aRequired = new Set((a.required as string[] | undefined) ?? []);
  // Open objects (no additionalProperties) let any value through for a field they do not name.
  const aExtra = (a.additionalProperties as JsonSchema | undefined) ?? true;
  const bExtra = (b.additionalProperties as JsonSchema | undefined) ?? true;
  for (const k of (b.required as string[] | undefined) ?? [])
    if (!aRequired.has(k))
      out.push(aProps[k] === undefined ? `${field(k)}: removed (the old reader requires it)` : `${field(k)}: no longer required`);
  for (const [k, s] of Object.entries(bProps)) {
    if (aProps[k] !== undefined) out.push(...subsetIssues(aProps[k], s, field(k)));
    else if (aExtra !== false && subsetIssues(aExtra, s, field(k)).length)
      out.push(`${field(k)}: removed (any value may now appear there)`);
  }
  for (const [k, s] of Object.entries(aProps)) {
    if (bProps[k] !== undefined || bExtra === true) continue;
    if (bExtra === false) out.push(`${field(k)}: added, but the other schema allows no other fields`);
    else out.push(...subsetIssues(s, bExtra, field(k)));
  }
  if (bExtra === false && aExtra !== false) out.push(`${field('*')}: any other field may appear, the other schema allows none`);
  else if (bExtra !== true && aExtra !== false) out.push(...subsetIssues(aExtra, bExtra, field('*')));
  return out;
}
