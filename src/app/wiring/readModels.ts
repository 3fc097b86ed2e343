// Composition of the gateway's read side from the process's shared resources: the bounded ClickHouse
// read store and the read models over it, with a freshness service fed by this process's freshness
// inputs (src/app/wiring/freshness.ts). The read models themselves live in src/projections/read.
import type { Registry } from 'prom-client';
import type { Settings } from '../../config/settings';
import { createFreshnessService } from '../../projections/freshness/freshnessService';
import { createReadModels, type ReadModels } from '../../projections/read/readModels';
import { fromClickHouseReads, type ReadModelStore } from '../../projections/read/readModelStore';
import { systemClock, type Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { Resources } from '../resources';
import { freshnessInputsFrom } from './freshness';

/**
 * The gateway's ClickHouse reads: as CLICKHOUSE_READ_USER where one is configured, each bounded on the
 * server and killed when its client request goes away. Neither on the embedded engine: chdb turns
 * per-query settings into session SETs that stay for every later statement of the process (readonly=2
 * would refuse the projector's next insert), and an embedded ClickHouse is one process's own store.
 */
export function gatewayReadStore(r: Resources, registry: Registry, s: Settings = r.settings): ReadModelStore {
  if (s.clickhouseEngine === 'embedded') return fromClickHouseReads(r.clickhouseReads, { registry });
  return fromClickHouseReads(r.clickhouseReads, {
    registry,
    cancelOnDisconnect: true,
    bounds: { maxExecutionSeconds: s.readMaxExecutionSeconds, maxMemoryBytes: s.readMaxMemoryBytes, readOnlyUser: !!s.clickhouseReadUser },
  });
}

/** The composition root's read models for a gateway process (uses the process's shared connections). */
export function readModelsFrom(r: Resources, opts: { registry: Registry; logger: Logger; clock?: Clock; settings?: Settings }): ReadModels {
  const s = opts.settings ?? r.settings;
  const clock = opts.clock ?? systemClock;
  const log = opts.logger.child({ component: 'freshness' });
  const onError = (store: string, err: unknown) => log.warn({ store, error: summarizeError(err) }, 'freshness input unavailable');
  const freshness = createFreshnessService({
    ...freshnessInputsFrom(r, { onError, settings: s }),
    clock,
    cacheMs: s.freshnessCacheMs,
    staleAfterMs: s.freshnessStaleAfterMs,
    registry: opts.registry,
  });
  return createReadModels({
    store: gatewayReadStore(r, opts.registry, s),
    database: s.clickhouseDatabase,
    freshness,
    maxPageSize: s.graphqlMaxPageSize,
    reportMinGroupSize: s.reportMinGroupSize,
    maxListWindowDays: s.readMaxWindowDays,
  });
}
