// Every acknowledged write read back as a demanding client reads it: a lookup that names the write's
// consistency token (so the answer includes it, or says what is missing), which must show the latest
// acknowledged version and value and be FRESH. Reads run in passes at bounded concurrency; what did not
// answer as it must is read again in the next pass, until nothing is left or a deadline passes (a read
// model catching up is not wrong; one still wrong at the deadline is).
import { sleep } from '../../src/shared/lifecycle';
import { LiveOrderDocument, RywLookupDocument } from '../generated/graphql';
import type { Acked } from './campaignEdits';
import { execute } from './graphqlClient';
import type { PlacedOrder } from './orderArrivals';

/** undefined: the key reads back as it must; else why not. */
export type ReadBackCheck = (key: string) => Promise<string | undefined>;

export interface ReadBack {
  passes: number;
  ms: number;
  /** What still did not read back as it must at the deadline, with why. */
  left: { key: string; why: string }[];
}

export async function readBack(keys: string[], check: ReadBackCheck, o: { concurrency: number; timeoutMs: number }): Promise<ReadBack> {
  const t0 = Date.now();
  const late = () => Date.now() - t0 > o.timeoutMs;
  let todo = keys;
  let left: ReadBack['left'] = [];
  let passes = 0;
  while (todo.length > 0) {
    passes++;
    left = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < todo.length; i = next++) {
        const key = todo[i]!;
        // Past the deadline nothing more is asked: a pass over many absent writes would wait for each.
        const why = late()
          ? 'not read: the deadline passed'
          : await check(key).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
        if (why !== undefined) left.push({ key, why });
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    todo = left.map((l) => l.key);
    if (todo.length === 0 || late()) break;
    await sleep(500);
  }
  return { passes, ms: Date.now() - t0, left };
}

const WAIT = { maxWaitMs: 5000 };

/**
 * A fitness result reads back at its latest acknowledged version and value; one whose last correction
 * got no answer (`uncertain`: it may have committed) at that version or a newer one.
 */
export function resultReadsBack(
  url: string,
  headers: Record<string, string>,
  acked: ReadonlyMap<string, Acked>,
  uncertain: ReadonlySet<string>,
): ReadBackCheck {
  return async (dataId) => {
    const want = acked.get(dataId)!;
    const r = await execute(url, RywLookupDocument, { dataId, consistency: { atLeast: [want.consistencyToken], ...WAIT } }, headers);
    if (r.errors || !r.data) return `refused: ${r.errors?.[0]?.extensions?.code ?? r.status}`;
    const { result, freshness } = r.data.fitnessResult;
    if (!result) return `not found (${freshness.status} ${freshness.reason})`;
    const newer = uncertain.has(dataId) && result.version > want.version;
    if (!newer && result.version !== want.version) return `version ${result.version}, acknowledged ${want.version}`;
    if (!newer && result.result !== want.value) return `result ${result.result} at version ${result.version}, acknowledged ${want.value}`;
    return freshness.status === 'FRESH' ? undefined : `${freshness.status} (${freshness.reason})`;
  };
}

/** An order reads back as placed: version 1 (orders never change), the total placed. */
export function orderReadsBack(url: string, headers: Record<string, string>, placed: ReadonlyMap<string, PlacedOrder>): ReadBackCheck {
  return async (orderId) => {
    const want = placed.get(orderId)!;
    const r = await execute(url, LiveOrderDocument, { orderId, consistency: { atLeast: [want.consistencyToken], ...WAIT } }, headers);
    if (r.errors || !r.data) return `refused: ${r.errors?.[0]?.extensions?.code ?? r.status}`;
    const { order, freshness } = r.data.order;
    if (!order) return `not found (${freshness.status} ${freshness.reason})`;
    if (order.version !== 1 || order.total !== want.total) return `version ${order.version} total ${order.total}, placed 1 ${want.total}`;
    return freshness.status === 'FRESH' ? undefined : `${freshness.status} (${freshness.reason})`;
  };
}
