// Fitness read queries: latest state only, each answer with its freshness marker. The marker's
// inputs are read before the data (and markers are cached briefly), so a marker never claims more
// than the data it accompanies shows. Every read is the caller's (loadersFor carries principalOf(ctx));
// the read models apply the fitness policy: out-of-scope results are null or absent, never FORBIDDEN.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { maySeeWriters } from '../../auth/principal';
import type { FitnessGroupBy } from '../../domains/fitness/read/selectFitnessReport';
import { principalOf } from '../auth';
import { ValidationError } from '../../shared/errors';
import type { GatewayContext } from '../context';
import { toConnection } from '../connection';
import { decodeCursor, encodeCursor, pageSize } from '../../shared/cursor';
import {
  FitnessReport,
  FitnessReportGroupBy,
  FitnessResultConnection,
  FitnessResultFilter,
  FitnessResultLookup,
  FitnessResultView,
} from './fitness.types';
import { loadersFor } from './loaders';
import { requireFitnessBound, selectsRows } from './listBounds';
import { parseDataId } from '../../domains/fitness/decide';
import { awaitConsistency, ConsistencyInput, withWrites } from './consistency.types';

const STUDENT_RESULTS_DEFAULT = 20;
const STUDENT_RESULTS_MAX = 100;

const isDataIdCursor = (v: unknown): v is { d: number } =>
  typeof v === 'object' && v !== null && Number.isSafeInteger((v as { d?: unknown }).d) && (v as { d: number }).d >= 0;
const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };

@Resolver(() => FitnessResultView)
export class FitnessQueriesResolver {
  @Authorized('fitness:read')
  @Query(() => FitnessResultLookup, {
    description: 'The latest state of one fitness result (null when deleted or not projected yet), with its freshness.',
  })
  async fitnessResult(
    @Arg('dataId', () => ID) dataId: string,
    @Ctx() ctx: GatewayContext,
    @Arg('consistency', () => ConsistencyInput, { nullable: true, description: 'Wait for your own writes first (consistencyToken).' })
    consistency?: ConsistencyInput | null,
  ): Promise<FitnessResultLookup> {
    const id = parseDataId(dataId);
    const l = loadersFor(ctx);
    const written = await awaitConsistency(ctx, consistency);
    const freshness = withWrites(await l.fitnessFreshness.load(String(id)), written);
    return { dataId: String(id), result: await l.fitnessById.load(id), freshness };
  }

  @Authorized('fitness:read')
  @Query(() => FitnessResultConnection, { description: 'Latest fitness results matching the filter, in dataId order, keyset-paginated.' })
  async fitnessResults(
    @Arg('filter', () => FitnessResultFilter, { nullable: true }) filter: FitnessResultFilter | null,
    @Arg('first', () => Int, { nullable: true, description: 'Page size (default 50, at most GRAPHQL_MAX_PAGE_SIZE).' })
    first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GatewayContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('consistency', () => ConsistencyInput, { nullable: true, description: 'Wait for your own writes first (consistencyToken).' })
    consistency?: ConsistencyInput | null,
  ): Promise<FitnessResultConnection> {
    const l = loadersFor(ctx);
    const n = pageSize(first, l.readModels.maxPageSize);
    const cursor = decodeCursor(after, isDataIdCursor);
    const f = defined({ ...(filter ?? {}) });
    for (const [field, v] of Object.entries(f)) if (v < 0) throw new ValidationError(field, `${field} must not be negative`);
    const rows = selectsRows(info);
    if (rows) requireFitnessBound(l.caller, f);
    const written = await awaitConsistency(ctx, consistency);
    const freshness = withWrites(await l.readModels.freshnessFor(l.caller, 'read', { domain: 'fitness', dataEquals: f }), written);
    const page = rows ? await l.readModels.fitnessPage(l.caller, f, n, cursor?.d) : { nodes: [], hasNextPage: false };
    for (const v of page.nodes) l.fitnessById.prime(Number(v.dataId), v);
    // Object.assign, not a spread: the connection's edges and pageInfo are getters, computed only when asked for.
    return Object.assign(
      toConnection(page.nodes, (v) => encodeCursor({ d: Number(v.dataId) }), { hasNextPage: page.hasNextPage, after }),
      { freshness },
    );
  }

  @Authorized('fitness:report')
  @Query(() => FitnessReport, {
    description:
      'Report over one campaign item: count, min, max, average and percentiles per school or grade, over the latest non-deleted ' +
      "results in the caller's report scope; groups with too few students are suppressed (counted in suppressedGroups).",
  })
  async fitnessReport(
    @Arg('detectId', () => Int) detectId: number,
    @Arg('projectId', () => Int) projectId: number,
    @Arg('groupBy', () => FitnessReportGroupBy) groupBy: FitnessGroupBy,
    @Ctx() ctx: GatewayContext,
    @Arg('consistency', () => ConsistencyInput, { nullable: true, description: 'Wait for your own writes first (consistencyToken).' })
    consistency?: ConsistencyInput | null,
  ): Promise<FitnessReport> {
    if (detectId < 0 || projectId < 0) throw new ValidationError(detectId < 0 ? 'detectId' : 'projectId', 'ids are not negative');
    const l = loadersFor(ctx);
    const written = await awaitConsistency(ctx, consistency);
    const scope = { domain: 'fitness' as const, dataEquals: { detectId, projectId } };
    const freshness = withWrites(await l.readModels.freshnessFor(l.caller, 'report', scope), written);
    const report = await l.readModels.fitnessReport(l.caller, { detectId, projectId, groupBy });
    return { detectId, projectId, groupBy, ...report, freshness };
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Token subject that wrote this version. Shown to operators and services only: null for every other role, and for ' +
      'versions whose event did not carry it (schema version 1).',
  })
  changedBy(@Root() r: FitnessResultView, @Ctx() ctx: GatewayContext): string | null {
    return maySeeWriters(principalOf(ctx)) ? r.changedBy : null;
  }

  @FieldResolver(() => [FitnessResultView], {
    description: "The same student's latest results in the same campaign that the caller may see (batched across the whole response).",
    complexity: ({ args, childComplexity }) =>
      1 + childComplexity * Math.min(Math.max(Number(args.first ?? STUDENT_RESULTS_DEFAULT), 1), STUDENT_RESULTS_MAX),
  })
  async studentResults(
    @Root() r: FitnessResultView,
    @Arg('first', () => Int, { nullable: true, description: 'At most this many (default 20, at most 100).' }) first: number | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<FitnessResultView[]> {
    const n = pageSize(first, STUDENT_RESULTS_MAX, STUDENT_RESULTS_DEFAULT);
    return (await loadersFor(ctx).studentResults.load(`${r.detectId}:${r.userId}`)).slice(0, n);
  }
}
