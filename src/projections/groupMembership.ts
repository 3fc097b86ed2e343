// Whether a failed offset commit means this member lost its place in the consumer group, and so must
// re-join before its commits can count again.
//
// Why the projector asks: it commits offsets itself after each flush (auto-commit is off) and, for
// most commit failures (a broker outage, a timeout), carries on: the tail is re-delivered, and rows
// are idempotent. But after a hung broker came back (the fault suite's `kafka-hung`, CI of
// 2026-12-01) the coordinator had expired the member's session, and kafkajs kept fetching without
// re-joining: every commit failed with UNKNOWN_MEMBER_ID for minutes, nobody else could take the
// partitions and no offset moved. As kafkajs 2.2.4's runner reads, a re-join that itself fails (the
// broker still slow) sends it back to fetching with its member id cleared, and without a member id
// it sends no heartbeat, so only a commit can notice. Handing the commit's error back to kafkajs
// from the batch handler makes the runner re-join (it resets the member id for UNKNOWN_MEMBER_ID
// and re-joins on the rebalancing errors): the path a failed heartbeat takes.
import { KafkaJSProtocolError } from 'kafkajs';

const MEMBERSHIP_LOST: ReadonlySet<string> = new Set(['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'REBALANCE_IN_PROGRESS']);

/**
 * The protocol error to hand back to kafkajs when `err` (a commit failure, as kafkajs reports it:
 * the protocol error itself, or wrapped once as non-retriable with it as `cause`) says the member
 * must re-join; undefined for every other failure.
 */
export function membershipLostBy(err: unknown): KafkaJSProtocolError | undefined {
  for (const e of [err, (err as { cause?: unknown } | null)?.cause])
    if (e instanceof KafkaJSProtocolError && MEMBERSHIP_LOST.has(e.type)) return e;
  return undefined;
}
