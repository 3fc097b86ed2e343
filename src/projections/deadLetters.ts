// Dead-letter messages: the original key, value and headers, unchanged (an operator can replay them
// once the cause is fixed), plus headers saying where they came from and why they were rejected. The
// reason detail names fields and checks only, never values. `identityOf` names the event a rejected
// message carries when that much can be read (for the operator's list; never any other content).
import type { Message } from 'kafkajs';
import type { DeadLetter } from './rows';

export const DEAD_LETTER_HEADERS = {
  reason: 'tidemark-dead-letter-reason',
  detail: 'tidemark-dead-letter-detail',
  topic: 'tidemark-source-topic',
  partition: 'tidemark-source-partition',
  offset: 'tidemark-source-offset',
  consumer: 'tidemark-consumer',
} as const;

/**
 * The key of a dead letter: the original record's, so an erasure's tombstone for that aggregate (same key)
 * supersedes it in the compacted dead-letter topic (src/infra/kafka/topicConfigs.ts). A record that came
 * without a key (possible only on a topic that is not compacted) gets one naming its position, since the
 * broker refuses a keyless record in a compacted topic.
 */
export function deadLetterKey(d: Pick<DeadLetter, 'key' | 'sourceTopic' | 'sourcePartition' | 'sourceOffset'>): Buffer | string {
  return d.key ?? `dead-letter:${d.sourceTopic}:${d.sourcePartition}:${d.sourceOffset}`;
}

export function toDeadLetterMessage(d: DeadLetter, consumer: string): Message {
  return {
    key: deadLetterKey(d),
    value: d.value,
    headers: {
      ...d.headers,
      [DEAD_LETTER_HEADERS.reason]: d.reason,
      [DEAD_LETTER_HEADERS.detail]: d.detail,
      [DEAD_LETTER_HEADERS.topic]: d.sourceTopic,
      [DEAD_LETTER_HEADERS.partition]: String(d.sourcePartition),
      [DEAD_LETTER_HEADERS.offset]: d.sourceOffset,
      [DEAD_LETTER_HEADERS.consumer]: consumer,
    },
  };
}

/**
 * eventId and aggregateId of a rejected message when it is a JSON object carrying them as short strings
 * ('' otherwise), and its version when that is a positive whole number (0 otherwise): the projector
 * names the dead-lettered (aggregate, version) in a PROJECTION_DEAD_LETTERED notice, so a read waiting
 * for that write (src/projections/consistency) stops waiting.
 */
export function identityOf(value: Buffer | null): { eventId: string; aggregateId: string; version: number } {
  const short = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : '');
  try {
    const o: unknown = value ? JSON.parse(value.toString('utf8')) : null;
    if (o && typeof o === 'object' && !Array.isArray(o)) {
      const named = o as Record<string, unknown>;
      const version = Number.isSafeInteger(named.version) && (named.version as number) > 0 ? (named.version as number) : 0;
      return { eventId: short(named.eventId), aggregateId: short(named.aggregateId), version };
    }
  } catch {
    // not JSON: nothing can be named
  }
  return { eventId: '', aggregateId: '', version: 0 };
}
