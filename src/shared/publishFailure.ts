// Why a publish failed decides who pays for it. An OUTAGE is the cluster's doing (no broker answers,
// no leader, not enough replicas, a request that times out): every record meets it, so it never
// spends a record's attempt budget; the relay backs off as a whole and the direct path opens its
// circuit. A RECORD failure belongs to one record (too large, invalid, not authorised for its topic):
// only those count towards PARKED / DEAD_LETTER. UNKNOWN is anything else; the relay settles it by
// evidence (another record in the same pass got through, or a cluster probe answers: then it is the
// record's) so an unclassified error can neither dead-letter a healthy backlog nor loop forever.
// The table is in docs/outbox-relay.md ("Failure classification").

export type PublishFailureKind = 'outage' | 'record' | 'unknown';

/** Broker answers that refuse the record itself: re-sending it can never succeed. */
const RECORD_ERROR_TYPES: ReadonlySet<string> = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
  'INVALID_TIMESTAMP',
  'TOPIC_AUTHORIZATION_FAILED',
  'INVALID_TOPIC_EXCEPTION',
  'POLICY_VIOLATION',
  'INVALID_REQUIRED_ACKS',
  'UNSUPPORTED_COMPRESSION_TYPE',
]);

/** Broker answers that describe the cluster's state: every record to that partition meets them. */
const OUTAGE_ERROR_TYPES: ReadonlySet<string> = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'REQUEST_TIMED_OUT',
  'REPLICA_NOT_AVAILABLE',
  'NETWORK_EXCEPTION',
  'BROKER_NOT_AVAILABLE',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'NOT_CONTROLLER',
  'KAFKA_STORAGE_ERROR',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'PREFERRED_LEADER_NOT_AVAILABLE',
  'ELIGIBLE_LEADERS_NOT_AVAILABLE',
  'LISTENER_NOT_FOUND',
  'THROTTLING_QUOTA_EXCEEDED',
  // Producer session state: a fresh producer (the sink makes one after any failure) clears them.
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
]);

/** kafkajs (and our own) error classes that mean the cluster or the path to it failed. */
const OUTAGE_ERROR_NAMES: ReadonlySet<string> = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSStaleTopicMetadataAssignment',
  'KafkaJSLockTimeout',
  'OperationTimeoutError',
]);

/** Socket-level codes of Node.js: the network, not the record. */
const OUTAGE_SYSTEM_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

interface ErrorLike {
  name?: unknown;
  type?: unknown;
  code?: unknown;
  retriable?: unknown;
  cause?: unknown;
  originalError?: unknown;
}

function kindOf(e: ErrorLike): PublishFailureKind | undefined {
  if (typeof e.type === 'string') {
    if (RECORD_ERROR_TYPES.has(e.type)) return 'record';
    if (OUTAGE_ERROR_TYPES.has(e.type)) return 'outage';
    if (e.name === 'KafkaJSProtocolError') return e.retriable === true ? 'outage' : undefined;
  }
  if (typeof e.name === 'string' && OUTAGE_ERROR_NAMES.has(e.name)) return 'outage';
  if (e.code === 'PUBLISH_TIMEOUT') return 'outage';
  if (typeof e.code === 'string' && OUTAGE_SYSTEM_CODES.has(e.code)) return 'outage';
  return undefined;
}

/**
 * Classifies a publish failure by walking the error and its causes (kafkajs wraps the broker's answer
 * in KafkaJSNumberOfRetriesExceeded and friends). A record verdict anywhere in the chain wins: the
 * broker refused the record, however the client reported it.
 */
export function classifyPublishFailure(err: unknown): PublishFailureKind {
  let found: PublishFailureKind | undefined;
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 8) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const k = kindOf(e as ErrorLike);
    if (k === 'record') return 'record';
    found ??= k;
    queue.push((e as ErrorLike).cause, (e as ErrorLike).originalError);
  }
  return found ?? 'unknown';
}
