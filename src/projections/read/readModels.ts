// The read side the gateway uses: latest-state lookups, pages and reports from ClickHouse, plus the
// freshness service that says how far those answers can be trusted. Built once per gateway process
// (composed in src/app/wiring/readModels.ts).
// Every method takes the caller and applies its domain's policy itself (src/domains/<d>/policy.ts; a
// freshness question's membership comes from the domain module's access, membershipOf): the scope
// goes into the ClickHouse query (sql/scopeSql.ts), reports get the policy's minimum group size, and
// freshness counts only pending publications in the caller's scope. Resolvers pass the principal only.
import type { Principal } from '../../auth/principal';
import { membershipOf } from '../../domains/contract/domainModule';
import { fitnessReadScope, fitnessReportAccess, type FitnessScope } from '../../domains/fitness/policy';
import { orderReadScope, orderReportAccess, type OrderScope } from '../../domains/orders/policy';
import { domainModule } from '../../domains/registry';
import type { Domain } from '../../publication/event';
import { coalescingLoaders, loadAll } from '../../shared/coalescing';
import type { Freshness } from '../freshness/decideFreshness';
import type { FreshnessService } from '../freshness/freshnessService';
import type { PendingScope } from '../../publication/pendingScope';
import type { ReadModelStore } from '../../domains/contract/readModelStore';
import type { ReportOf } from '../../domains/contract/scopeSql';
import { fitnessScopeKey } from '../../domains/fitness/read/fitnessScopeSql';
import type { FitnessView } from '../../domains/fitness/read/fitnessView';
import { selectFitnessByIds } from '../../domains/fitness/read/selectFitnessByIds';
import { selectFitnessByStudents, type StudentKey } from '../../domains/fitness/read/selectFitnessByStudents';
import { selectFitnessPage, type FitnessFilter } from '../../domains/fitness/read/selectFitnessPage';
import { selectFitnessReport, type FitnessGroupBy, type FitnessReportGroup } from '../../domains/fitness/read/selectFitnessReport';
import { orderScopeKey } from '../../domains/orders/read/orderScopeSql';
import type { OrderView } from '../../domains/orders/read/orderView';
import { selectOrderReport, type OrderGroupBy, type OrderReportGroup } from '../../domains/orders/read/selectOrderReport';
import { selectOrdersByIds } from '../../domains/orders/read/selectOrdersByIds';
import { selectOrdersPage, type OrderCursor, type OrderFilter } from '../../domains/orders/read/selectOrdersPage';

export interface Page<T> {
  nodes: T[];
  hasNextPage: boolean;
}

export interface ReadModels {
  maxPageSize: number;
  /** Widest from/to window that bounds an orders list on its own (READ_MAX_WINDOW_DAYS). */
  maxListWindowDays: number;
  /** Unscoped markers (gauges, operator views); a caller's reads use freshnessFor / aggregateFreshness. */
  freshness: FreshnessService;
  /** The marker of a read ('read') or report ('report') of `scope`, narrowed to what the caller may see. */
  freshnessFor(caller: Principal, use: 'read' | 'report', scope: PendingScope): Promise<Freshness>;
  /** One marker per id, in the order asked; an id the caller may not see gets an unknown id's marker. */
  aggregateFreshness(caller: Principal, domain: Domain, ids: readonly string[]): Promise<Freshness[]>;
  /** The latest live result of each id, in the order asked; null where none is projected, it is deleted or out of scope. */
  fitnessByIds(caller: Principal, dataIds: readonly number[]): Promise<(FitnessView | null)[]>;
  /** Latest results in scope of each (campaign, student) pair, in the order asked, each in data_id order. */
  fitnessByStudents(caller: Principal, keys: readonly StudentKey[]): Promise<FitnessView[][]>;
  fitnessPage(caller: Principal, filter: FitnessFilter, first: number, afterDataId?: number): Promise<Page<FitnessView>>;
  fitnessReport(
    caller: Principal,
    q: { detectId: number; projectId: number; groupBy: FitnessGroupBy },
  ): Promise<ReportOf<FitnessReportGroup>>;
  /** Each order in the order asked; null where none is projected or it is another customer's. */
  ordersByIds(caller: Principal, orderIds: readonly string[]): Promise<(OrderView | null)[]>;
  ordersPage(caller: Principal, filter: OrderFilter, first: number, after?: OrderCursor): Promise<Page<OrderView>>;
  orderReport(caller: Principal, q: { from: Date; to: Date; groupBy: OrderGroupBy }): Promise<ReportOf<OrderReportGroup>>;
  close(): Promise<void>;
}

export function createReadModels(d: {
  store: ReadModelStore;
  database: string;
  freshness: FreshnessService;
  maxPageSize: number;
  /** The smallest group an analyst's report shows (settings.reportMinGroupSize). */
  reportMinGroupSize: number;
  maxListWindowDays?: number;
}): ReadModels {
  const { store, database } = d;
  // Every method is async, so a caller without the capability gets a rejected promise (FORBIDDEN),
  // never a synchronous throw. Point lookups of concurrent requests share one query (src/shared/coalescing.ts), but only with
  // callers of the same scope: the scope is part of the query, so a batch never mixes two scopes.
  const fitnessById = coalescingLoaders<FitnessScope, number, FitnessView | null>(fitnessScopeKey, async (scope, ids) => {
    const found = new Map((await selectFitnessByIds(store, database, scope, [...ids])).map((v) => [v.dataId, v]));
    return ids.map((id) => found.get(String(id)) ?? null);
  });
  const orderById = coalescingLoaders<OrderScope, string, OrderView | null>(orderScopeKey, async (scope, ids) => {
    const found = new Map((await selectOrdersByIds(store, database, scope, [...ids])).map((v) => [v.orderId, v]));
    return ids.map((id) => found.get(id) ?? null);
  });
  return {
    maxPageSize: d.maxPageSize,
    maxListWindowDays: d.maxListWindowDays ?? 31,
    freshness: d.freshness,
    freshnessFor: async (caller, use, scope) =>
      d.freshness.forScope({ ...scope, dataIn: membershipOf(domainModule(scope.domain), caller, use) }),
    aggregateFreshness: async (caller, domain, ids) =>
      d.freshness.forAggregates(domain, ids, membershipOf(domainModule(domain), caller, 'read')),
    fitnessByIds: async (caller, ids) => loadAll(fitnessById(fitnessReadScope(caller)), ids),
    fitnessByStudents: async (caller, keys) => {
      const by = new Map<string, FitnessView[]>();
      for (const v of await selectFitnessByStudents(store, database, fitnessReadScope(caller), [...keys])) {
        const key = `${v.detectId}:${v.userId}`;
        const rows = by.get(key);
        if (rows) rows.push(v);
        else by.set(key, [v]);
      }
      return keys.map((k) => by.get(`${k.detectId}:${k.userId}`) ?? []);
    },
    fitnessPage: async (caller, f, first, after) => selectFitnessPage(store, database, fitnessReadScope(caller), f, first, after),
    fitnessReport: async (caller, q) => selectFitnessReport(store, database, fitnessReportAccess(caller, d.reportMinGroupSize), q),
    ordersByIds: async (caller, ids) => loadAll(orderById(orderReadScope(caller)), ids),
    ordersPage: async (caller, f, first, after) => selectOrdersPage(store, database, orderReadScope(caller), f, first, after),
    orderReport: async (caller, q) => selectOrderReport(store, database, orderReportAccess(caller, d.reportMinGroupSize), q),
    close: () => d.freshness.close(),
  };
}
