// What the fitness write service offers its callers (GraphQL resolvers, tests, benchmarks). Every
// write names the acting Principal: the service, not the caller, decides what it may write
// (./writeAccess.ts), so no path into the store skips authorisation.
import type { Principal } from '../../auth/principal';
import type { PublicationOutcome } from '../../publication/publisher';
import type { CorrectFitnessResult, DeleteFitnessResult, FitnessResultState, RecordFitnessResult } from './types';

export interface FitnessWriteOutcome {
  result: FitnessResultState;
  publication: PublicationOutcome;
  /** True when an idempotency key matched an earlier request and its first result was returned. */
  replayed: boolean;
}

export interface FitnessService {
  /** FORBIDDEN unless the actor may write results of cmd.schoolId. */
  record(cmd: Omit<RecordFitnessResult, 'kind'>, actor: Principal): Promise<FitnessWriteOutcome>;
  /** NOT_FOUND for a result outside the actor's scope; FORBIDDEN for a move to a school outside it. */
  correct(cmd: Omit<CorrectFitnessResult, 'kind'>, actor: Principal): Promise<FitnessWriteOutcome>;
  /** NOT_FOUND for a result outside the actor's scope. */
  delete(cmd: Omit<DeleteFitnessResult, 'kind'>, actor: Principal): Promise<FitnessWriteOutcome>;
  /** The authoritative state (live, or the tombstone of a deleted result); internal and operator use, unscoped. */
  get(dataId: number): Promise<FitnessResultState | undefined>;
}
