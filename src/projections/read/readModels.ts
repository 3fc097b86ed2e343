// The read side the gateway uses: latest-state lookups, pages and reports from ClickHouse, plus the
// freshness service that says how far those answers can be trusted. Built once per gateway process.
import type { Registry } from 'prom-client';
import type { Settings } from '../../config/settings';
import type { Resources } from '../../app/resources';
import { systemClock, type Clock } from '../../shared/clock';
import { coalescingLoader, loadAll } from '../../shared/coalescing';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { createFreshnessService, type FreshnessService } from '../freshness/freshnessService';
import { freshnessInputsFrom } from '../freshness/freshnessInputs';
import { fromClickHouseReads, type ReadModelStore } from './readModelStore';
import { selectFitnessByIds } from './sql/selectFitnessByIds';
import { selectFitnessByStudents, type StudentKey } from './sql/selectFitnessByStudents';
import { selectFitnessPage, type FitnessFilter } from './sql/selectFitnessPage';
import { selectFitnessReport, type FitnessGroupBy, type FitnessReportGroup } from './sql/selectFitnessReport';
import { selectOrderReport, type OrderGroupBy, type OrderReportGroup } from './sql/selectOrderReport';
import { selectOrdersByIds } from './sql/selectOrdersByIds';
import { selectOrdersPage, type OrderCursor, type OrderFilter } from './sql/selectOrdersPage';
import type { FitnessView, OrderView } from './views';

export interface Page<T> {
  nodes: T[];
  hasNextPage: boolean;
}

export interface ReadModels {
  maxPageSize: number;
  freshness: FreshnessService;
  /** The latest live result of each id, in the order asked; null where none is projected or it is deleted. */
  fitnessByIds(dataIds: readonly number[]): Promise<(FitnessView | null)[]>;
  /** Latest results of each (campaign, student) pair, in the order asked, each in data_id order. */
  fitnessByStudents(keys: readonly StudentKey[]): Promise<FitnessView[][]>;
  fitnessPage(filter: FitnessFilter, first: number, afterDataId?: number): Promise<Page<FitnessView>>;
  fitnessReport(detectId: number, projectId: number, groupBy: FitnessGroupBy): Promise<FitnessReportGroup[]>;
  /** Each order in the order asked; null where none is projected. */
  ordersByIds(orderIds: readonly string[]): Promise<(OrderView | null)[]>;
  ordersPage(filter: OrderFilter, first: number, after?: OrderCursor): Promise<Page<OrderView>>;
  orderReport(from: Date, to: Date, groupBy: OrderGroupBy): Promise<OrderReportGroup[]>;
  close(): Promise<void>;
}

export function createReadModels(d: {
  store: ReadModelStore;
  database: string;
  freshness: FreshnessService;
  maxPageSize: number;
}): ReadModels {
  const { store, database } = d;
  // Point lookups of concurrent requests share one query (src/shared/coalescing.ts).
  const fitnessById = coalescingLoader<number, FitnessView | null>(async (ids) => {
    const found = new Map((await selectFitnessByIds(store, database, [...ids])).map((v) => [v.dataId, v]));
    return ids.map((id) => found.get(String(id)) ?? null);
  });
  const orderById = coalescingLoader<string, OrderView | null>(async (ids) => {
    const found = new Map((await selectOrdersByIds(store, database, [...ids])).map((v) => [v.orderId, v]));
    return ids.map((id) => found.get(id) ?? null);
  });
  return {
    maxPageSize: d.maxPageSize,
    freshness: d.freshness,
    fitnessByIds: (ids) => loadAll(fitnessById, ids),
    fitnessByStudents: async (keys) => {
      const by = new Map<string, FitnessView[]>();
      for (const v of await selectFitnessByStudents(store, database, [...keys])) {
        const key = `${v.detectId}:${v.userId}`;
        const rows = by.get(key);
        if (rows) rows.push(v);
        else by.set(key, [v]);
      }
      return keys.map((k) => by.get(`${k.detectId}:${k.userId}`) ?? []);
    },
    fitnessPage: (f, first, after) => selectFitnessPage(store, database, f, first, after),
    fitnessReport: (detectId, projectId, groupBy) => selectFitnessReport(store, database, detectId, projectId, groupBy),
    ordersByIds: (ids) => loadAll(orderById, ids),
    ordersPage: (f, first, after) => selectOrdersPage(store, database, f, first, after),
    orderReport: (from, to, groupBy) => selectOrderReport(store, database, from, to, groupBy),
    close: () => d.freshness.close(),
  };
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
    store: fromClickHouseReads(r.clickhouse, opts.registry),
    database: s.clickhouseDatabase,
    freshness,
    maxPageSize: s.graphqlMaxPageSize,
  });
}
