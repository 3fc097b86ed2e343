// A domain's event contract: the data schema of every schema version (zod, the one place the rules
// live: the projector decodes by them and schema/events/ is generated from them) and the declared
// upcasters that lift an event of one version to the next. A reader knows versions 1..N: it upcasts an
// older event step by step to N and maps that; a newer one is dead-lettered (UNSUPPORTED_SCHEMA_VERSION)
// and replayable once the reader knows it. Versions only ever add to the data (docs/events.md), so an
// old reader's rule for a new event is defined: it is parked, never guessed at.
import type { z } from 'zod';
import type { Domain } from '../../shared/domain';

export type EventData = Record<string, unknown>;

/** Lifts the data of a version-`from` event to version `from + 1`. Pure; fills what the old version lacked. */
export interface Upcaster {
  readonly from: number;
  readonly to: number;
  up(data: EventData): EventData;
}

export interface EventContract<D extends z.ZodType = z.ZodType> {
  readonly domain: Domain;
  /** How an unknown event type is named in a dead letter's detail ("fitness", "order"). */
  readonly label: string;
  readonly eventTypes: ReadonlySet<string>;
  /** The data schema of versions 1..N, oldest first: the newest is what the projection maps. */
  readonly versions: readonly [...z.ZodType[], D];
  /** One per step 1->2 ... (N-1)->N, checked at start (checkContract). */
  readonly upcasters: readonly Upcaster[];
}

/** The newest schema version of a contract (what a reader of this code base reads up to). */
export function newestVersion(c: EventContract): number {
  return c.versions.length;
}

/**
 * Throws at start when the upcaster chain has a gap, a duplicate or a step that is not +1: a reader
 * must reach the newest version from every older one in exactly one way.
 */
export function checkContract(c: EventContract): void {
  const newest = newestVersion(c);
  if (newest < 1) throw new Error(`${c.domain} event contract has no version`);
  const steps = new Map<number, number>();
  for (const u of c.upcasters) {
    if (u.to !== u.from + 1) throw new Error(`${c.domain} upcaster ${u.from}->${u.to} is not one step`);
    if (u.from < 1 || u.to > newest) throw new Error(`${c.domain} upcaster ${u.from}->${u.to} is outside versions 1..${newest}`);
    steps.set(u.from, (steps.get(u.from) ?? 0) + 1);
  }
  for (let v = 1; v < newest; v++) {
    const n = steps.get(v) ?? 0;
    if (n === 0) throw new Error(`${c.domain} has no upcaster ${v}->${v + 1} (a gap in the chain)`);
    if (n > 1) throw new Error(`${c.domain} has ${n} upcasters ${v}->${v + 1} (a duplicate)`);
  }
}

/** The data of a version-`from` event as version `to` (from <= to), through the declared chain. */
export function upcast(c: EventContract, data: EventData, from: number, to: number = newestVersion(c)): EventData {
  let out = data;
  for (let v = from; v < to; v++) {
    const step = c.upcasters.find((u) => u.from === v);
    if (!step) throw new Error(`${c.domain} has no upcaster ${v}->${v + 1}`);
    out = step.up(out);
  }
  return out;
}

/**
 * The schema version a producer writes: the newest it knows, but never beyond what every live reader
 * has announced (`agreed`), and never below 1. See src/publication/schemaVersionGate.ts.
 */
export function versionToWrite(c: EventContract, known: number, agreed: number): number {
  return Math.max(1, Math.min(newestVersion(c), known, agreed));
}
