// The faults that need precise timing, and the check that each really happened. A relay is SIGKILLed
// while it holds claimed (PROCESSING) rows, and a projector between its ClickHouse insert and its
// offset commit. Both are caught the same way: a backlog is built while the process is frozen
// (SIGSTOP), it is thawed, and the moment its work shows (rows PROCESSING; new rows in ClickHouse) it is
// frozen again. While frozen, the precondition is checked; only if it holds is the process SIGKILLed,
// and the precondition is read again after the kill. If it never holds within the budget, the process
// is thawed and left running, and the action throws FaultNotInjectedError: the cycle fails instead of
// counting a fault that did not happen.
//   relay      rows PROCESSING under the killed relay's own live claim (claimed_by = its instance id,
//              lease not expired on the database clock), still PROCESSING under it after the kill
//   projector  rows in ClickHouse at offsets at or past the group's committed offset, in partitions
//              assigned to a live member of the projector's consumer group, still uncommitted after
//              the kill
// faultPreconditions.int.spec.ts shows these checks fail when the fault is not injected. The catch
// functions (catchRelayMidBatch, catchProjectorBetweenInsertAndCommit) also serve the SIGTERM drain
// test (test/e2e/roleDrain.e2e.spec.ts), which stops a process caught with work in flight.
import { AssignerProtocol } from 'kafkajs';
import type { Resources } from '../../../src/app/resources';
import { ident } from '../../../src/infra/clickhouse/literal';
import { projectorGroupId } from '../../../src/projections/projectorGroup';
import { sleep, waitFor } from '../../../src/shared/lifecycle';

/** A fault action found that its fault did not happen; the cycle must fail, not count. */
export class FaultNotInjectedError extends Error {
  constructor(
    readonly fault: string,
    readonly precondition: string,
    readonly observed: Record<string, unknown>,
  ) {
    super(`fault '${fault}' was not injected: ${precondition} never held (${JSON.stringify(observed)})`);
    this.name = 'FaultNotInjectedError';
  }
}

/** Throws FaultNotInjectedError unless `held`; the other fault actions (connection storms) use it too. */
export function requireInjected(held: boolean, fault: string, precondition: string, observed: Record<string, unknown>): void {
  if (!held) throw new FaultNotInjectedError(fault, precondition, observed);
}

/** What the kill actions need of a process (the suite's Cluster has it). */
export interface FaultTarget {
  freeze(name: string): void;
  thaw(name: string): void;
  kill(name: string): Promise<void>;
}

export interface CatchOptions {
  /** Freeze-and-look attempts that saw work but not the precondition (default 50). */
  maxTries?: number;
  /** Overall budget before giving up (default 120 s, inside the reduced profile's 240 s cycle timeout). */
  timeoutMs?: number;
  /** Outbox rows NEW to wait for while the relay is frozen (default 40). */
  backlogRows?: number;
}

async function outboxCount(r: Resources, where: string, bindings: string[] = []): Promise<number> {
  let n = 0;
  for (const s of r.mysql.shards) {
    const [rows] = (await s.db.raw(`SELECT COUNT(*) AS n FROM outbox_events WHERE ${where}`, bindings)) as [{ n: number }[]];
    n += Number(rows[0]!.n);
  }
  return n;
}

/** Rows PROCESSING under `owner`'s live claim (its lease not expired on the database clock). */
function claimedBy(r: Resources, owner: string): Promise<number> {
  return outboxCount(r, "status = 'PROCESSING' AND claimed_by = ? AND lease_expires_at > NOW(3)", [owner]);
}

/**
 * Freezes `name` (a relay whose instance id is `name`) at a moment it holds claimed rows in flight and
 * returns with it FROZEN; throws FaultNotInjectedError (the process thawed) if that never happens.
 */
export async function catchRelayMidBatch(
  r: Resources,
  target: FaultTarget,
  name: string,
  opts: CatchOptions = {},
): Promise<{ tries: number; claimed: number }> {
  const maxTries = opts.maxTries ?? 50;
  const deadline = Date.now() + (opts.timeoutMs ?? 120000);
  const backlogRows = opts.backlogRows ?? 40;
  let tries = 0;
  let frozen = false;
  const freeze = () => ((frozen = true), target.freeze(name));
  const thaw = () => ((frozen = false), target.thaw(name));
  const fault = 'relay-sigkill-mid-batch';
  const precondition = `rows PROCESSING under ${name}'s live claim`;
  try {
    while (tries < maxTries && Date.now() < deadline) {
      freeze();
      await waitFor(async () => (await outboxCount(r, "status = 'NEW'")) >= backlogRows, {
        timeoutMs: Math.max(1000, Math.min(30000, deadline - Date.now())),
        intervalMs: 100,
        what: 'an outbox backlog',
      });
      thaw();
      const round = Math.min(deadline, Date.now() + 5000);
      while (Date.now() < round && tries < maxTries) {
        // Polled without a pause: a batch is claimed and published within milliseconds.
        if ((await claimedBy(r, name)) === 0) continue;
        freeze();
        tries++;
        const claimed = await claimedBy(r, name);
        if (claimed > 0) return { tries, claimed };
        thaw();
      }
    }
  } catch (err) {
    if (frozen) thaw();
    throw new FaultNotInjectedError(fault, precondition, { tries, error: (err as Error).message });
  }
  if (frozen) thaw();
  throw new FaultNotInjectedError(fault, precondition, { tries, processingByAnyone: await outboxCount(r, "status = 'PROCESSING'") });
}

/**
 * SIGKILLs `name` (a relay) while it holds claimed rows in flight; returns how many rows its claim
 * held when it was killed and how many it left PROCESSING.
 */
export async function killRelayMidBatch(
  r: Resources,
  cluster: FaultTarget,
  name: string,
  opts: CatchOptions = {},
): Promise<{ tries: number; claimedWhenKilled: number; leftProcessing: number; claimedBy: string }> {
  const { tries, claimed } = await catchRelayMidBatch(r, cluster, name, opts);
  await cluster.kill(name);
  // A statement the relay sent just before it died (its mark-sent UPDATE) still runs to its end on the
  // server: the rows are counted once two reads apart agree, so the count is what stays PROCESSING.
  let leftProcessing = await claimedBy(r, name);
  for (let previous = -1; previous !== leftProcessing;) {
    previous = leftProcessing;
    await sleep(300);
    leftProcessing = await claimedBy(r, name);
  }
  requireInjected(leftProcessing > 0, 'relay-sigkill-mid-batch', `rows left PROCESSING under ${name}'s claim after the kill`, {
    tries,
    claimedWhenKilled: claimed,
    leftProcessing,
  });
  return { tries, claimedWhenKilled: claimed, leftProcessing, claimedBy: name };
}

async function committedOffsets(r: Resources, groupId: string, topics: string[]): Promise<Map<string, bigint>> {
  const admin = r.kafka.admin();
  await admin.connect();
  try {
    const out = new Map<string, bigint>();
    for (const t of await admin.fetchOffsets({ groupId, topics }))
      for (const p of t.partitions) out.set(`${t.topic}:${p.partition}`, BigInt(p.offset === '-1' ? '0' : p.offset));
    return out;
  } finally {
    await admin.disconnect();
  }
}

/** Partitions assigned to a current member of the group (empty while it has none or rebalances). */
async function assignedPartitions(r: Resources, groupId: string): Promise<Set<string>> {
  const admin = r.kafka.admin();
  await admin.connect();
  try {
    const out = new Set<string>();
    const [group] = (await admin.describeGroups([groupId])).groups;
    for (const m of group?.members ?? []) {
      const decoded = m.memberAssignment?.length ? AssignerProtocol.MemberAssignment.decode(m.memberAssignment) : null;
      for (const [topic, partitions] of Object.entries(decoded?.assignment ?? {})) for (const p of partitions) out.add(`${topic}:${p}`);
    }
    return out;
  } finally {
    await admin.disconnect();
  }
}

async function projectedOffsets(r: Resources): Promise<{ physical: number; newest: Map<string, bigint> }> {
  const db = ident(r.settings.clickhouseDatabase);
  const newest = new Map<string, bigint>();
  let physical = 0;
  for (const [table, topic] of [
    ['fitness_results', r.topics.events.fitness],
    ['orders', r.topics.events.orders],
  ] as const) {
    const rs = await r.clickhouse.query({
      query: `SELECT kafka_partition AS p, toString(max(kafka_offset)) AS o, count() AS n FROM ${db}.${table} GROUP BY kafka_partition`,
      format: 'JSONEachRow',
    });
    for (const x of await rs.json<{ p: number; o: string; n: string }>()) {
      newest.set(`${topic}:${x.p}`, BigInt(x.o));
      physical += Number(x.n);
    }
  }
  return { physical, newest };
}

/** Partitions whose newest row in ClickHouse is at or past the group's committed offset (optionally only `among`). */
export async function uncommittedPartitions(r: Resources, among?: Set<string>): Promise<string[]> {
  const groupId = projectorGroupId(r.settings);
  const [committed, projected] = await Promise.all([
    committedOffsets(r, groupId, [r.topics.events.fitness, r.topics.events.orders]),
    projectedOffsets(r),
  ]);
  return [...projected.newest].filter(([k, o]) => o >= (committed.get(k) ?? 0n) && (!among || among.has(k))).map(([k]) => k);
}

/**
 * Freezes `name` (a projector) at a moment ClickHouse holds rows it inserted but whose offsets it has
 * not committed, and returns with it FROZEN; throws FaultNotInjectedError (the process thawed) if that
 * never happens.
 */
export async function catchProjectorBetweenInsertAndCommit(
  r: Resources,
  target: FaultTarget,
  name: string,
  backlog: () => Promise<void>,
  opts: CatchOptions = {},
): Promise<{ tries: number; uncommittedPartitions: string[] }> {
  const maxTries = opts.maxTries ?? 50;
  const deadline = Date.now() + (opts.timeoutMs ?? 120000);
  const groupId = projectorGroupId(r.settings);
  let tries = 0;
  let frozen = false;
  const freeze = () => ((frozen = true), target.freeze(name));
  const thaw = () => ((frozen = false), target.thaw(name));
  const fault = 'projector-sigkill-before-commit';
  const precondition = 'projected rows beyond the committed offset of an assigned partition';
  try {
    while (tries < maxTries && Date.now() < deadline) {
      freeze();
      await backlog();
      let seen = (await projectedOffsets(r)).physical;
      thaw();
      const round = Math.min(deadline, Date.now() + 10000);
      while (Date.now() < round && tries < maxTries) {
        const now = (await projectedOffsets(r)).physical;
        if (now === seen) continue;
        freeze();
        tries++;
        // Only partitions a live group member holds: rows written by anything but the group's
        // consumer (or by a member that already left) do not count.
        const partitions = await uncommittedPartitions(r, await assignedPartitions(r, groupId));
        if (partitions.length > 0) return { tries, uncommittedPartitions: partitions };
        seen = now;
        thaw();
      }
    }
  } catch (err) {
    if (frozen) thaw();
    throw new FaultNotInjectedError(fault, precondition, { tries, error: (err as Error).message });
  }
  if (frozen) thaw();
  throw new FaultNotInjectedError(fault, precondition, { tries });
}

/**
 * SIGKILLs `name` (a projector) while ClickHouse holds rows it inserted but whose offsets it has not
 * committed (they will be re-delivered); returns those partitions.
 */
export async function killProjectorBetweenInsertAndCommit(
  r: Resources,
  cluster: FaultTarget,
  name: string,
  backlog: () => Promise<void>,
  opts: CatchOptions = {},
): Promise<{ tries: number; uncommittedPartitions: string[]; uncommittedAfterKill: string[] }> {
  const caught = await catchProjectorBetweenInsertAndCommit(r, cluster, name, backlog, opts);
  await cluster.kill(name);
  const uncommittedAfterKill = await uncommittedPartitions(r, new Set(caught.uncommittedPartitions));
  requireInjected(uncommittedAfterKill.length > 0, 'projector-sigkill-before-commit', 'projected rows still uncommitted after the kill', {
    ...caught,
    uncommittedAfterKill,
  });
  return { ...caught, uncommittedAfterKill };
}
