// Which event schema versions this process knows, per domain: the newest of each domain's contract,
// lowered to EVENT_SCHEMA_VERSION_CAP when a process is pinned (an operator holding a fleet back during
// a rollout, or a test standing up what an older deploy would be). The projector decodes with it, the
// dead-letter replay too (a parked newer event replays once the reader knows its version), each
// projector member announces it to its group (readsAnnouncement.ts), and the producers' gate never
// writes beyond it (src/publication/schemaVersionGate.ts). docs/upgrades.md.
import type { EventSchemaSettings } from '../config/slices';
import { newestVersion, type EventContract } from '../domains/contract/eventContract';
import { projectedDomains, projectionOf } from '../domains/projections';
import type { Domain } from '../shared/domain';

/** Per domain, the newest schema version this process reads and writes. */
export type ReaderVersions = Readonly<Record<Domain, number>>;

/** The newest version of `c` a process capped at `cap` knows (the contract's newest when unset). */
export function knownVersion(c: EventContract, cap: number | undefined): number {
  return Math.max(1, Math.min(newestVersion(c), cap ?? Number.POSITIVE_INFINITY));
}

/** Every projected domain's known version under the setting's cap. */
export function readerVersions(s: EventSchemaSettings = {}): ReaderVersions {
  return Object.fromEntries(projectedDomains().map((p) => [p.domain, knownVersion(p.decoder.contract, s.eventSchemaVersionCap)]));
}

/** The known version of one domain (its contract's newest when the map does not name it). */
export function readsOf(versions: ReaderVersions, domain: Domain): number {
  return versions[domain] ?? newestVersion(projectionOf(domain).decoder.contract);
}
