// The projector's name in Kafka and in its checkpoints, read by every component that asks how far it got.
import type { ProjectorGroupSettings } from '../config/slices';

/** The consumer group (and checkpoint `consumer`) of the projector; freshness reads the same name. */
export function projectorGroupId(s: ProjectorGroupSettings): string {
  return s.projectorGroupId ?? `${s.kafkaTopicPrefix}.projector`;
}
