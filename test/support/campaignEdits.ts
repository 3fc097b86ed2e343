// A campaign being edited the way its users edit it, through the real write path (GraphQL -> shard +
// outbox -> relay -> Kafka -> projector): seeded with results at bounded concurrency, then an open loop
// of writes in the same campaign, alternately a correction of an existing result (one at a time per
// result, naming the version last acknowledged for it) and a new result. Every acknowledged write is
// kept as its result's latest version, value and consistency token, so a test can read each one back
// as a demanding client would. A correction that got no acknowledgement may still have committed: its
// result is marked uncertain (read back at that version or a newer one) and no longer corrected.
import { RywCorrectDocument, RywRecordDocument } from '../generated/graphql';
import { execute, type GraphQLResponse } from './graphqlClient';
import { openLoop } from './openLoop';

export interface Acked {
  version: number;
  /** The result as the read model shows it (3 decimals). */
  value: string;
  consistencyToken: string;
}

export interface CampaignKey {
  detectId: number;
  projectId: number;
}

export interface EditCounts {
  corrections: number;
  created: number;
  failed: number;
}

export interface CampaignEditLoad {
  /** dataId -> its latest acknowledged write (the seeded ones included). */
  readonly acked: ReadonlyMap<string, Acked>;
  /** Results whose last correction was not acknowledged: read back at least at the acknowledged version. */
  readonly uncertain: ReadonlySet<string>;
  /** Writes this load had acknowledged so far. */
  ok(): number;
  counts(): EditCounts;
  /** A few distinct failure codes or messages (never payloads). */
  failures(): string[];
  /** Stops starting writes and waits for those in flight. */
  stop(): Promise<EditCounts>;
}

const why = (r: GraphQLResponse<unknown>) => String(r.errors?.[0]?.extensions?.code ?? r.errors?.[0]?.message ?? `HTTP ${r.status}`);
const decimal = (whole: number, i: number) => `${whole}.${String(100 + (i % 900))}`;

function record(url: string, headers: Record<string, string>, c: CampaignKey, userId: number, value: string, key?: string) {
  const input = { ...c, userId, schoolId: 1 + (userId % 20), grade: 5, result: value, unit: 'm', ...(key ? { idempotencyKey: key } : {}) };
  return execute(url, RywRecordDocument, { input }, headers);
}

/** Records `count` results (each its own student) at bounded concurrency; a refused write is asked again with its idempotency key. */
export async function seedCampaign(o: {
  url: string;
  headers: Record<string, string>;
  campaign: CampaignKey;
  count: number;
  concurrency: number;
  userBase: number;
}): Promise<Map<string, Acked>> {
  const acked = new Map<string, Acked>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < o.count; i = next++) {
      const value = decimal(1, i);
      for (let attempt = 1; ; attempt++) {
        const r = await record(o.url, o.headers, o.campaign, o.userBase + i, value, `seed-${o.campaign.detectId}-${i}`).catch(
          (e: Error) => ({
            status: 0,
            errors: [{ message: e.message }],
          }),
        );
        if (!r.errors && 'data' in r && r.data) {
          const w = r.data.recordFitnessResult;
          acked.set(w.result.dataId, { version: w.result.version, value, consistencyToken: w.consistencyToken });
          break;
        }
        if (attempt >= 3) throw new Error(`seeding result ${i} of campaign ${o.campaign.detectId} failed: ${why(r)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return acked;
}

export function startCampaignEdits(o: {
  url: string;
  headers: Record<string, string>;
  campaign: CampaignKey;
  /** The seeded results: taken over (and updated) by the load. */
  acked: Map<string, Acked>;
  perSecond: number;
  userBase: number;
}): CampaignEditLoad {
  const counts: EditCounts = { corrections: 0, created: 0, failed: 0 };
  const failures = new Set<string>();
  const uncertain = new Set<string>();
  const busy = new Set<string>();
  const ids = [...o.acked.keys()];
  let cursor = 0;
  const fail = (reason: string) => {
    counts.failed++;
    if (failures.size < 5) failures.add(reason.slice(0, 160));
  };
  const create = async (i: number) => {
    const value = decimal(2, i);
    try {
      const r = await record(o.url, o.headers, o.campaign, o.userBase + i, value);
      if (r.errors || !r.data) return fail(why(r));
      const w = r.data.recordFitnessResult;
      o.acked.set(w.result.dataId, { version: w.result.version, value, consistencyToken: w.consistencyToken });
      ids.push(w.result.dataId);
      counts.created++;
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  };
  const correct = async (dataId: string, i: number) => {
    busy.add(dataId);
    const value = decimal(3, i);
    try {
      const vars = { dataId, expectedVersion: o.acked.get(dataId)!.version, result: value };
      const r = await execute(o.url, RywCorrectDocument, vars, o.headers);
      if (r.errors || !r.data) {
        uncertain.add(dataId);
        return fail(why(r));
      }
      const w = r.data.correctFitnessResult;
      o.acked.set(dataId, { version: w.result.version, value, consistencyToken: w.consistencyToken });
      counts.corrections++;
    } catch (err) {
      uncertain.add(dataId);
      fail(err instanceof Error ? err.message : String(err));
    } finally {
      busy.delete(dataId);
    }
  };
  /** The next result free to correct, or undefined when every one is busy or uncertain. */
  const pick = () => {
    for (let tries = 0; tries < ids.length; tries++) {
      const id = ids[cursor++ % ids.length]!;
      if (!busy.has(id) && !uncertain.has(id)) return id;
    }
    return undefined;
  };
  // Even writes are new results, odd ones corrections (a new result when no result is free to correct).
  const loop = openLoop(o.perSecond, (i) => {
    const id = i % 2 === 1 ? pick() : undefined;
    return id ? correct(id, i) : create(i);
  });
  return {
    acked: o.acked,
    uncertain,
    ok: () => counts.corrections + counts.created,
    counts: () => ({ ...counts }),
    failures: () => [...failures],
    async stop() {
      await loop.stop();
      return { ...counts };
    },
  };
}
