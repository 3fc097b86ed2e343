// Each projector member (src/projections/projectorParts.ts) tells its consumer group which event
// schema versions it reads, so producers write nothing a live reader cannot decode (src/publication/schemaVersionGate.ts reads it back with
// admin.describeGroups). It travels in the group membership itself, the one place that is exactly as
// current as the group: a member that leaves or dies stops announcing with it, no registry to clean up.
//
// The assigner wraps kafkajs' default round-robin one under the same name and version, only adding
// JSON userData {"reads":{"fitness":2,"orders":2}} to its member metadata: a member of an older deploy
// (the plain round-robin assigner, no userData) and a new one still agree on the group protocol, so a
// rolling upgrade never splits the group. An older member's missing userData reads as version 1.
import { AssignerProtocol, PartitionAssigners, type PartitionAssigner } from 'kafkajs';
import type { Domain } from '../../shared/domain';

/** Per domain, the newest event schema version a member reads. */
export type AnnouncedReads = Readonly<Record<Domain, number>>;

/** The round-robin assigner whose member metadata announces `reads`. */
export function announcingAssigner(reads: AnnouncedReads): PartitionAssigner {
  return (config) => {
    const inner = PartitionAssigners.roundRobin(config);
    return {
      name: inner.name,
      version: inner.version,
      assign: (group) => inner.assign(group),
      protocol({ topics }) {
        const metadata = AssignerProtocol.MemberMetadata.encode({
          version: inner.version,
          topics,
          userData: Buffer.from(JSON.stringify({ reads })),
        });
        return { name: inner.name, metadata };
      },
    };
  };
}

/**
 * The versions a member announced in its metadata, per domain. Undefined when it announced nothing
 * readable (an older deploy, or foreign userData): the caller counts such a member as reading 1 only.
 */
export function announcedReads(memberMetadata: Buffer): Partial<Record<Domain, number>> | undefined {
  try {
    const userData = AssignerProtocol.MemberMetadata.decode(memberMetadata)?.userData;
    if (!userData || userData.length === 0) return undefined;
    const parsed = JSON.parse(userData.toString('utf8')) as { reads?: unknown };
    if (typeof parsed.reads !== 'object' || parsed.reads === null) return undefined;
    const out: Partial<Record<Domain, number>> = {};
    for (const [domain, v] of Object.entries(parsed.reads as Record<string, unknown>))
      if (Number.isInteger(v) && (v as number) >= 1) out[domain] = v as number;
    return out;
  } catch {
    return undefined;
  }
}
