// The schema version gate: "readers first, writers after" (docs/upgrades.md). A producer writes a
// domain's events in the newest schema version every live projector member has announced it reads
// (src/infra/kafka/readsAnnouncement.ts), never newer than this process knows (EVENT_SCHEMA_VERSION_CAP).
// So a rolling upgrade needs no ordering by hand: new writers keep writing the old version until the
// last old reader is gone, and a pinned fleet stays pinned.
//
// The answer is synchronous and cached: fitness events are built inside a MySQL transaction, and a
// write must never wait for, or fail because of, Kafka. The view is refreshed in the background by
// describing the projector's consumer group. Safe by default:
//   - until the first Stable view with at least one member, every domain is written in version 1
//     (what every reader of every deploy reads);
//   - while the group rebalances (or is empty, or Kafka cannot be asked) the last agreed view stays:
//     a rebalance does not say who will remain, and Kafka being away must not change what is written;
//   - a member that announced nothing (an older deploy) reads 1.
// The residual race (a reader downgraded after the last view) is in docs/upgrades.md: its events are
// dead-lettered UNSUPPORTED_SCHEMA_VERSION and replayable once a reader knows them.
import type { GroupReads, GroupReadsView } from '../infra/kafka/groupReads';
import { gauge, type Registry } from '../metrics/registry';
import type { RetryPolicy } from '../shared/backoff';
import type { Clock } from '../shared/clock';
import type { Domain } from '../shared/domain';
import { sleep, type Stoppable } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import { summarizeError } from '../shared/redact';
import { fixedSchemaVersions, type EventSchemaVersions } from './schemaVersions';

export interface SchemaVersionGateDeps {
  /** The projector group's members and what they announced (fromKafkaGroupReads). */
  group: GroupReads;
  /** Per domain, the newest version this process knows (its contract's newest, or the cap). */
  known: Readonly<Record<Domain, number>>;
  /**
   * The contract's rule for what to write given what readers agree (versionToWrite of the domain's event
   * contract with `known`): passed in by the composition root, the gate sits below the domains.
   */
  versionToWrite(domain: Domain, agreed: number): number;
  refreshMs: number;
  /** Delay after failed refreshes (never gives up: the last view is kept meanwhile). */
  retry: RetryPolicy;
  clock: Clock;
  logger: Logger;
  registry?: Registry;
}

/** What the gate says about one domain (publicationHealth's eventSchema). */
export interface EventSchemaView {
  writing: number;
  newestKnown: number;
  /** The newest version every live reader announced; null until a Stable group was seen. */
  readersAgree: number | null;
  /** When the readers' view was last taken from a Stable group; null before. */
  agreedAt: Date | null;
}

export interface SchemaVersionGate extends EventSchemaVersions, Stoppable {
  view(domain: Domain): EventSchemaView;
}

/** Per domain, the least version the members of a Stable group announced; undefined when there is nothing to agree on. */
export function agreedReads(v: GroupReadsView, domains: readonly Domain[]): Map<Domain, number> | undefined {
  if (v.state !== 'Stable' || v.members.length === 0) return undefined;
  return new Map(domains.map((d) => [d, Math.min(...v.members.map((m) => m.reads?.[d] ?? 1))]));
}

export function startSchemaVersionGate(d: SchemaVersionGateDeps): SchemaVersionGate {
  const log = d.logger.child({ component: 'schema-version-gate' });
  const domains = Object.keys(d.known);
  let agreed: Map<Domain, number> | undefined;
  let agreedAt: Date | null = null;
  const toWrite = (domain: Domain) => d.versionToWrite(domain, agreed?.get(domain) ?? 1);
  if (d.registry) registerGauges(d.registry, domains, toWrite, () => agreed);

  async function refresh(): Promise<void> {
    const next = agreedReads(await d.group.describe(), domains);
    if (!next) return;
    const changed = domains.filter((x) => next.get(x) !== agreed?.get(x));
    agreed = next;
    agreedAt = d.clock.now();
    if (changed.length) {
      const writing = Object.fromEntries(domains.map((x) => [x, toWrite(x)]));
      log.info({ readersAgree: Object.fromEntries(next), writing }, 'the projector group agrees on new event schema versions');
    }
  }

  const stopped = new AbortController();
  const loop = (async () => {
    let failures = 0;
    while (!stopped.signal.aborted) {
      try {
        await refresh();
        failures = 0;
      } catch (err) {
        failures++;
        // Logged on the first failure and every tenth: an outage keeps the last view, quietly.
        if (failures === 1 || failures % 10 === 0)
          log.warn(
            { attempt: failures, error: summarizeError(err) },
            'cannot describe the projector group; keeping the last agreed versions',
          );
      }
      await sleep(failures ? Math.min(d.refreshMs, d.retry.delayMs(failures)) : d.refreshMs, stopped.signal);
    }
  })();

  return {
    toWrite,
    view: (domain) => ({
      writing: toWrite(domain),
      newestKnown: d.known[domain] ?? 1,
      readersAgree: agreed?.get(domain) ?? null,
      agreedAt,
    }),
    async stop() {
      stopped.abort();
      await loop;
      await d.group.close();
    },
  };
}

/** A gate with fixed answers and nothing to refresh (tests, tools): fixedSchemaVersions as a gate. */
export function fixedSchemaVersionGate(versions: Partial<Record<Domain, number>> = {}): SchemaVersionGate {
  const fixed = fixedSchemaVersions(versions);
  return {
    toWrite: fixed.toWrite,
    view: (domain) => ({ writing: fixed.toWrite(domain), newestKnown: fixed.toWrite(domain), readersAgree: null, agreedAt: null }),
    stop: async () => undefined,
  };
}

function registerGauges(r: Registry, domains: string[], toWrite: (d: Domain) => number, agreed: () => Map<Domain, number> | undefined) {
  gauge<'domain'>(r, {
    name: 'tidemark_event_schema_version_writing',
    help: 'Event schema version this producer writes now, by domain (the schema version gate, docs/upgrades.md).',
    labelNames: ['domain'],
    collect() {
      for (const domain of domains) this.set({ domain }, toWrite(domain));
    },
  });
  gauge<'domain'>(r, {
    name: 'tidemark_event_schema_version_readers_agree',
    help: 'Newest event schema version every live projector member announced it reads, by domain (0 until the group was seen Stable).',
    labelNames: ['domain'],
    collect() {
      const a = agreed();
      for (const domain of domains) this.set({ domain }, a?.get(domain) ?? 0);
    },
  });
}
