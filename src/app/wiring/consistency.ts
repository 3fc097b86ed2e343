// The gateway's consistency service, built by the composition root (src/app/starters/gateway.ts): the
// token codec with the deployment's key, the waiter fed synchronously by this gateway's state-change
// hub, and the read-side wait over the read models' instrumented ClickHouse store (its one query is
// counted as tidemark_read_model_queries_total{query="consistencyVersions"}). A gauge shows how many
// waits are open, against CONSISTENCY_MAX_WAITING.
import type { Registry } from 'prom-client';
import type { Resources } from '../resources';
import type { Settings } from '../../config/settings';
import { gauge } from '../../metrics/registry';
import type { StateChangeHub } from '../../publication/stateChanges/stateChangeHub';
import { gatewayReadStore } from './readModels';
import { createAppliedVersions, type AppliedVersions } from '../../projections/consistency/appliedVersions';
import { consistencyKey } from '../../projections/consistency/consistencyKey';
import { consistencyTokenCodec } from '../../projections/consistency/consistencyToken';
import { createConsistencyService, type ConsistencyService } from '../../projections/consistency/consistentReads';

export interface GatewayConsistency {
  service: ConsistencyService;
  applied: AppliedVersions;
  stop(): Promise<void>;
}

export function consistencyFrom(
  r: Resources,
  o: { registry: Registry; hub: Pick<StateChangeHub, 'listen'>; settings?: Settings },
): GatewayConsistency {
  const s = o.settings ?? r.settings;
  const applied = createAppliedVersions();
  const unlisten = o.hub.listen((changes) => applied.observe(changes));
  const service = createConsistencyService({
    tokens: consistencyTokenCodec(consistencyKey(s)),
    applied,
    store: gatewayReadStore(r, o.registry, s),
    database: s.clickhouseDatabase,
    defaultWaitMs: s.consistencyWaitDefaultMs,
    maxWaitMs: s.consistencyWaitMaxMs,
    maxWaiting: s.consistencyMaxWaiting,
  });
  gauge(o.registry, {
    name: 'tidemark_consistency_waits_open',
    help: 'Reads and writeVisible subscriptions waiting for the writes their consistency tokens name, on this gateway.',
    collect() {
      this.set(service.waiting());
    },
  });
  return {
    service,
    applied,
    stop: async () => unlisten(),
  };
}
