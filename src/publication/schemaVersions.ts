// Which event schema version a producer writes now, per domain: the port behind "readers first,
// writers after" (docs/events.md). A producer (a fitness transaction, a kafka-first order, a repair)
// asks it when it builds an event; the answer is the newest version every live projector member has
// announced it reads, capped by what this process knows (the gate: src/publication/schemaVersionGate.ts).
// The default answers 1, the version every reader of every deploy reads: safe when nothing is wired.
import type { Domain } from '../shared/domain';

export interface EventSchemaVersions {
  /** The schema version to write a `domain` event in now (1 when nothing is known). */
  toWrite(domain: Domain): number;
}

/** Fixed answers (tests, and a process with no gate): `versions[domain]`, else 1. */
export function fixedSchemaVersions(versions: Partial<Record<Domain, number>> = {}): EventSchemaVersions {
  return { toWrite: (domain) => versions[domain] ?? 1 };
}
