// What a consumer group's members announced they read (readsAnnouncement.ts), as one question to
// Kafka: admin.describeGroups on the process's shared lazy admin connection. The schema version gate
// (src/publication/schemaVersionGate.ts) asks it every few seconds; a failure is the caller's to ride out.
import type { Kafka } from 'kafkajs';
import type { Domain } from '../../shared/domain';
import { lazyAdmin } from './lazyAdmin';
import { announcedReads } from './readsAnnouncement';

/** The group's state and, per member, what it announced (undefined: nothing readable, an older deploy). */
export interface GroupReadsView {
  /** Kafka's group state: Stable, PreparingRebalance, CompletingRebalance, Empty, Dead, Unknown. */
  state: string;
  members: { memberId: string; reads: Partial<Record<Domain, number>> | undefined }[];
}

export interface GroupReads {
  describe(): Promise<GroupReadsView>;
  close(): Promise<void>;
}

export function fromKafkaGroupReads(kafka: Kafka, groupId: string): GroupReads {
  const admin = lazyAdmin(kafka);
  return {
    async describe() {
      const { groups } = await admin.use((a) => a.describeGroups([groupId]));
      const g = groups.find((x) => x.groupId === groupId);
      if (!g) return { state: 'Unknown', members: [] };
      return { state: g.state, members: g.members.map((m) => ({ memberId: m.memberId, reads: announcedReads(m.memberMetadata) })) };
    },
    close: () => admin.close(),
  };
}
