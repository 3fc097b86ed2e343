// Dead-letter messages: the original key, value and headers, unchanged (an operator can replay them
// once the cause is fixed), plus headers saying where they came from and why they were rejected. The
// reason detail names fields and checks only, never values.
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

export function toDeadLetterMessage(d: DeadLetter, consumer: string): Message {
  return {
    key: d.key,
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
