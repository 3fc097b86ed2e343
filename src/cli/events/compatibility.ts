// The compatibility rules between the versions of one event contract, for every pair i < j (not just
// neighbours: two steps that each look harmless can together break a reader, docs/events.md):
// FORWARD: an old reader (version i) accepts every version-j event: schema j is a subset of schema i
// (schemaSubset.ts). BACKWARD: a new reader reads every version-i event through the declared
// upcasters: the chain i->j fills every field j requires that i lacks, with values valid in j, and
// leaves the fields i had as they were (so each must already be valid in j: a subset check per field).
// Upcasters are run on sample events built from schema i (samples.ts): a check by example, not a proof.
import { upcast, type EventContract, type EventData } from '../../domains/contract/eventContract';
import { dataJsonSchema } from './contractFiles';
import { subsetIssues, type JsonSchema } from './schemaSubset';
import { sampleValues } from './samples';

export interface CompatibilityIssue {
  readonly domain: string;
  readonly from: number;
  readonly to: number;
  readonly rule: 'FORWARD' | 'BACKWARD';
  readonly detail: string;
}

/** Every way the versions of a contract are not transitively compatible; empty when they are. */
export function compatibilityIssues(c: EventContract): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = [];
  const n = c.versions.length;
  for (let i = 1; i < n; i++)
    for (let j = i + 1; j <= n; j++) {
      const issue = (rule: CompatibilityIssue['rule']) => (detail: string) => out.push({ domain: c.domain, from: i, to: j, rule, detail });
      subsetIssues(dataJsonSchema(c, j), dataJsonSchema(c, i), 'data').forEach(issue('FORWARD'));
      backwardIssues(c, i, j).forEach(issue('BACKWARD'));
    }
  return out;
}

/** A JSON value as text with sorted keys: equal texts, equal values (whatever realm built them). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'undefined';
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

/** Why the upcaster chain i->j does not lift version-i events into valid version-j ones. */
export function backwardIssues(c: EventContract, i: number, j: number): string[] {
  const from = dataJsonSchema(c, i);
  const to = dataJsonSchema(c, j);
  const had = Object.keys((from.properties as object | undefined) ?? {});
  const needs = ((to.required as string[] | undefined) ?? []).filter((k) => !had.includes(k));
  let samples: EventData[];
  try {
    samples = sampleValues(from as JsonSchema).filter((s): s is EventData => typeof s === 'object' && s !== null && !Array.isArray(s));
  } catch (e) {
    return [`cannot build a version-${i} sample event to try the upcasters on (${(e as Error).message})`];
  }
  if (samples.some((s) => !c.versions[i - 1]!.safeParse(s).success)) return [`cannot build a valid version-${i} sample event`];
  const gaps = Array.from({ length: j - i }, (_, n) => i + n).filter((v) => !c.upcasters.some((u) => u.from === v && u.to === v + 1));
  if (gaps.length) return [`no upcaster chain ${i}->${j} (missing ${gaps.map((v) => `${v}->${v + 1}`).join(', ')})`];
  const out: string[] = [];
  // The fields i had pass through unchanged, so each of their values must be valid in j as it is.
  const toProps = (to.properties ?? {}) as Record<string, JsonSchema>;
  const fromProps = (from.properties ?? {}) as Record<string, JsonSchema>;
  for (const k of had) if (toProps[k] !== undefined) out.push(...subsetIssues(fromProps[k]!, toProps[k], `data.${k}`));
  for (const sample of samples) {
    let lifted: EventData;
    try {
      lifted = upcast(c, JSON.parse(JSON.stringify(sample)) as EventData, i, j);
    } catch (e) {
      // A developer's own upcaster failing on a sample: its message is what they need to fix it.
      out.push(`the upcasters ${i}->${j} threw on a sample version-${i} event (${e instanceof Error ? e.message : 'not an Error'})`);
      break;
    }
    const missing = needs.filter((k) => !(k in lifted));
    for (const k of missing) out.push(`data.${k}: required in version ${j}, absent in ${i} and not filled by the upcasters`);
    for (const k of Object.keys(sample))
      if (canonical(sample[k]) !== canonical(lifted[k]))
        out.push(`data.${k}: changed by the upcasters (a version-${i} field must stay as it was)`);
    const parsed = c.versions[j - 1]!.safeParse(lifted);
    if (!parsed.success)
      for (const issue of parsed.error.issues.filter((x) => !missing.includes(String(x.path[0]))))
        out.push(`data.${issue.path.join('.')}: the upcast event is not valid in version ${j} (${issue.message.toLowerCase()})`);
  }
  return [...new Set(out)];
}
