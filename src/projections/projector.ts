// The projector: a Kafka consumer group over the projected domains' topics (src/domains/projections.ts)
// that keeps the ClickHouse read models. Horizontally scalable: every member gets a share of the
// partitions, and each partition's batch handler (partitionBatch.ts) maps its messages, hands them to the shared FlushBuffer (one insert per
// table per flush, by size or interval) and waits for the acknowledgement before it resolves and
// commits the partition's offsets. So:
//   - offsets are committed only after ClickHouse acknowledged the rows (autoCommit is off);
//   - a restart or rebalance mid-batch re-delivers at most the uncommitted tail, which is harmless
//     (rows carry their business version; ReplacingMergeTree and argMax keep the latest);
//   - an undecodable or unmappable message becomes a dead letter in the same flush (and a row of the
//     operator's dead-letter list, and a PROJECTION_DEAD_LETTERED notice), so its partition moves on;
//   - messages Kafka's retention deleted before they were applied are detected (expiryChecks.ts),
//     counted and recorded in the same flush, so a reconciliation of their window is scheduled;
//   - while ClickHouse (or the dead-letter topic) is unavailable the flush is retried and the
//     waiting handlers hold their partitions (heartbeating, so the group does not evict them).
// Its parts are wired in projectorParts.ts; below are the steps: watch the group, connect and run,
// check the checkpoints periodically, stop in drain order.
import { repeatEvery, type Stoppable } from '../shared/lifecycle';
import { summarizeError } from '../shared/redact';
import { ProjectorStoppingError } from './flushBuffer';
import type { Projector, ProjectorOptions } from './projectorOptions';
import { projectorParts, type ProjectorParts } from './projectorParts';

export async function startProjector(o: ProjectorOptions): Promise<Projector> {
  const p = projectorParts(o);
  const joined = watchGroup(p);
  await connectAndRun(p);
  p.log.info({ topics: [...p.domains.keys()] }, 'projector started');
  const checker = checkpointChecker(p);
  let stopping: Promise<void> | undefined;
  return {
    groupId: o.groupId,
    joined: () => joined,
    stop() {
      stopping ??= stopProjector(p, checker);
      return stopping;
    },
  };
}

/** The group's join (the resume guard learns the assignment, expired offsets are checked) and crashes. */
function watchGroup({ consumer, log, guard, checks, assignedChecks }: ProjectorParts): Promise<void> {
  let joinedResolve!: () => void;
  const joined = new Promise<void>((r) => (joinedResolve = r));
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    log.info({ assignment: e.payload.memberAssignment }, 'joined the projector group');
    guard.assigned(e.payload.memberAssignment);
    for (const [topic, partitions] of Object.entries(e.payload.memberAssignment))
      for (const partition of partitions) {
        const p = checks.checkAssigned(topic, partition).catch((err) => {
          if (err instanceof ProjectorStoppingError) return;
          log.warn({ topic, partition, error: summarizeError(err) }, 'expired-offset check of an assigned partition failed');
        });
        assignedChecks.add(p);
        void p.finally(() => assignedChecks.delete(p));
      }
    joinedResolve();
  });
  consumer.on(consumer.events.CRASH, (e) =>
    log.error({ error: summarizeError(e.payload.error), restart: e.payload.restart }, 'projector consumer crashed'),
  );
  return joined;
}

/** Connects both clients and runs the consumer (manual commits); on failure both are disconnected. */
async function connectAndRun({ o, producer, consumer, domains, eachBatch }: ProjectorParts): Promise<void> {
  await producer.connect();
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [...domains.keys()], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: o.concurrentPartitions,
      eachBatch,
    });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
}

/** Compares the checkpoints with what was written, every checkpointCheckMs (resume/). */
function checkpointChecker({ o, guard, log }: ProjectorParts): Stoppable {
  // While ClickHouse is down the check fails every time: the first failure and every tenth are logged.
  let checkFailures = 0;
  return repeatEvery(
    o.checkpointCheckMs ?? 5000,
    async () => {
      await guard.check();
      checkFailures = 0;
    },
    (err) => {
      if (++checkFailures === 1 || checkFailures % 10 === 0)
        log.warn({ attempt: checkFailures, error: summarizeError(err) }, 'cannot compare the checkpoints with what was written; next time');
    },
  );
}

async function stopProjector(p: ProjectorParts, checker: Stoppable): Promise<void> {
  p.stopped.abort();
  await checker.stop();
  p.guard.close();
  // Flush what is buffered first (bounded), so handlers waiting on it return and stop() can finish.
  await p.buffer.close(p.o.stopDeadlineMs ?? 10000);
  await Promise.allSettled([...p.assignedChecks, ...p.handlers]);
  await p.consumer.disconnect().catch((err) => p.log.warn({ error: summarizeError(err) }, 'consumer disconnect failed'));
  await p.producer.disconnect().catch(() => undefined);
  await p.expiry.close();
  p.log.info('projector stopped');
}
