// Who may change which fitness result, as the write service applies it: fitnessPolicy's write scope
// (src/domains/fitness/policy.ts) against the result's LATEST state, read under its row lock. Out of
// scope is FORBIDDEN for what the caller names itself (the school of a record, the school a
// correction moves to) and NOT_FOUND for an existing result it may not see, worded exactly like a
// missing one so a refusal never reveals that a result exists.
import { outOfScope, scopeFor } from '../../auth/access';
import type { Principal } from '../../auth/principal';
import { writerSubject } from '../../auth/writer';
import { NotFoundError } from '../../shared/errors';
import { fitnessPolicy, inFitnessScope, type FitnessScope } from './policy';
import type { FitnessResultState } from './types';

/** The actor's write scope (FORBIDDEN for roles without fitness writes) and the subject its versions record. */
export function writeAccess(actor: Principal): { scope: FitnessScope; changedBy: string } {
  return { scope: scopeFor(fitnessPolicy, actor, 'write'), changedBy: writerSubject(actor) };
}

/** A state the actor may write (its latest version decides); the school named in refusals. */
export function requireWritable(scope: FitnessScope, s: Pick<FitnessResultState, 'schoolId' | 'userId'>): void {
  if (!inFitnessScope(scope, s)) throw outOfScope(`a result of school ${s.schoolId}`);
}

/**
 * The current state if the actor may see it: a result outside the scope is answered exactly like a
 * missing one (same NotFoundError), and before the version check, so neither NOT_FOUND's wording nor
 * a VERSION_CONFLICT reveals that it exists.
 */
export function visible(scope: FitnessScope, current: FitnessResultState | undefined, dataId: number): FitnessResultState | undefined {
  if (current && !inFitnessScope(scope, current)) throw new NotFoundError('fitness result', dataId);
  return current;
}
