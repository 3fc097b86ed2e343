// The freshness marker of a read that waited for consistency tokens: the scope's marker (computed
// after the wait, as always before the data), corrected by what the wait learnt about the named
// writes. A write that will not be applied makes the read STALE naming why (the projector
// dead-lettered it, or its publication is parked or dead-lettered); a write still missing when
// maxWaitMs ran out makes it at least CATCHING_UP. Either way the missing writes are named, and the
// read still returns what the projection holds: a consistency token never turns a read into an error.
import type { Freshness } from '../freshness/decideFreshness';
import type { MissingVersion, WriteVisibility } from './consistentReads';

export interface ConsistentFreshness extends Freshness {
  missing: MissingVersion[];
}

const named = (m: readonly MissingVersion[]) =>
  m
    .slice(0, 3)
    .map((x) => `${x.domain} ${x.aggregateId} v${x.version}`)
    .join(', ') + (m.length > 3 ? ` and ${m.length - 3} more` : '');

export function freshnessWithWrites(f: Freshness, v: WriteVisibility | undefined): ConsistentFreshness {
  if (!v || v.visible) return { ...f, missing: [] };
  if (v.blocked) {
    const stuck = v.missing.filter((m) => m.reason !== 'NOT_YET_VISIBLE');
    const why = v.blocked === 'PROJECTOR_DEAD_LETTERED' ? 'the projector dead-lettered' : 'the publication is parked or dead-lettered for';
    return {
      ...f,
      status: 'STALE',
      reason: v.blocked,
      detail: `${why} ${named(stuck)}, named by the consistency token: it will not be visible without an operator`,
      missing: v.missing,
    };
  }
  return {
    ...f,
    status: f.status === 'STALE' ? 'STALE' : 'CATCHING_UP',
    // A marker that is FRESH (cached, or blind to an order still in flight) is overruled: the
    // projector has not applied what the token names, which is consumer lag as far as it can tell.
    reason: f.status === 'FRESH' ? 'CONSUMER_LAG' : f.reason,
    detail: `${named(v.missing)} (named by the consistency token) not in the read model after ${v.waitedMs} ms; ${f.detail}`,
    missing: v.missing,
  };
}
