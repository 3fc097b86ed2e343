// GraphQL types of the fitness read model (latest projected state, never a physical version).
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { FitnessGroupBy } from '../../domains/fitness/read/selectFitnessReport';
import { DecimalScalar } from '../scalars';
import { ConnectionOf } from '../connection';
import { ONCE_PER_ANSWER } from '../connection';
import { Freshness } from './freshness.types';

@ObjectType({ description: 'The latest non-deleted state of a fitness result, as projected into ClickHouse.' })
export class FitnessResultView {
  @Field(() => ID, { description: 'dataId % 100 is the shard the result lives on.' }) dataId!: string;
  @Field(() => Int) detectId!: number;
  @Field(() => Int) userId!: number;
  @Field(() => Int) projectId!: number;
  @Field(() => Int) schoolId!: number;
  @Field(() => Int) grade!: number;
  @Field(() => DecimalScalar, { description: 'Exact, 3 decimals, e.g. "2.310".' }) result!: string;
  @Field(() => String) unit!: string;
  @Field(() => Int, { description: 'The business version this state belongs to.' }) version!: number;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'Commit time of this version in the authoritative shard.' }) updatedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: 'When the projector wrote this version to ClickHouse.' }) ingestedAt!: Date;
  @Field(() => Int) shard!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'When the test was taken; null when not said or not known.' })
  measuredAt!: Date | null;
  /** Resolved by FitnessQueriesResolver.changedBy (operators and services only). */
  changedBy!: string | null;
}

@ObjectType({ description: 'One fitness result looked up by id, with the freshness of that answer.' })
export class FitnessResultLookup {
  @Field(() => ID) dataId!: string;
  @Field(() => FitnessResultView, {
    nullable: true,
    description: 'Null when the result does not exist, was deleted, or is not projected yet (see freshness).',
  })
  result!: FitnessResultView | null;
  @Field(() => Freshness, {
    complexity: ONCE_PER_ANSWER,
    description: 'Scope: this result (its pending publications) and the fitness topic.',
  })
  freshness!: Freshness;
}

@InputType({
  description:
    "All given fields must match each result's latest version (schoolId is its current school: a correction may move it); " +
    'results outside your scope are never returned.',
})
export class FitnessResultFilter {
  @Field(() => Int, { nullable: true }) detectId?: number | null;
  @Field(() => Int, { nullable: true }) projectId?: number | null;
  @Field(() => Int, { nullable: true }) schoolId?: number | null;
  @Field(() => Int, { nullable: true }) grade?: number | null;
  @Field(() => Int, { nullable: true }) userId?: number | null;
}

@ObjectType({ description: 'A page of latest fitness results in dataId order.' })
export class FitnessResultConnection extends ConnectionOf(FitnessResultView, 'FitnessResult') {
  @Field(() => Freshness, {
    complexity: ONCE_PER_ANSWER,
    description: 'Scope: the filter (pending publications matching it) and the fitness topic.',
  })
  freshness!: Freshness;
}

export const FitnessReportGroupBy: Record<FitnessGroupBy, FitnessGroupBy> = { SCHOOL: 'SCHOOL', GRADE: 'GRADE' };
registerEnumType(FitnessReportGroupBy, { name: 'FitnessReportGroupBy', description: 'How a fitness report groups results.' });

@ObjectType({ description: 'Statistics of one group over the latest non-deleted results (each result counted once).' })
export class FitnessReportGroup {
  @Field(() => Int, { description: 'The schoolId or grade.' }) key!: number;
  @Field(() => String, { description: 'Results in different units are never mixed.' }) unit!: string;
  @Field(() => Int) count!: number;
  @Field(() => DecimalScalar) min!: string;
  @Field(() => DecimalScalar) max!: string;
  @Field(() => DecimalScalar, { description: 'Exact mean, rounded half away from zero to 3 decimals.' }) average!: string;
  @Field(() => DecimalScalar, { description: 'Median (exact: an actual result value).' }) p50!: string;
  @Field(() => DecimalScalar) p90!: string;
  @Field(() => DecimalScalar) p99!: string;
}

@ObjectType({ description: "A report over one campaign item, within the caller's report scope." })
export class FitnessReport {
  @Field(() => Int) detectId!: number;
  @Field(() => Int) projectId!: number;
  @Field(() => FitnessReportGroupBy) groupBy!: FitnessGroupBy;
  @Field(() => [FitnessReportGroup], { description: 'The groups shown: each has at least the minimum number of distinct students.' })
  groups!: FitnessReportGroup[];
  @Field(() => Int, {
    description:
      'Groups not shown because they have fewer distinct students than the minimum group size for your role ' +
      '(REPORT_MIN_GROUP_SIZE for analysts; 0 for others, who see every group).',
  })
  suppressedGroups!: number;
  @Field(() => Freshness, { complexity: ONCE_PER_ANSWER, description: 'Scope: this detectId and projectId.' }) freshness!: Freshness;
}
