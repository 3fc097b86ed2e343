// The subject a write is recorded under: who changed a row (changed_by, deleted_by) and whose
// idempotency key it is. The stores keep it in VARCHAR(255) columns, so a token whose subject is
// longer cannot write at all (refused before any I/O, never truncated: a truncated subject could
// collide with another caller's and share its idempotency keys).
import type { Principal } from './principal';
import { AuthError } from './tokens';

export const MAX_WRITER_SUBJECT_LENGTH = 255;

export function writerSubject(p: Principal): string {
  if (p.subject.length === 0 || p.subject.length > MAX_WRITER_SUBJECT_LENGTH)
    throw new AuthError('FORBIDDEN', `writes need a token subject of 1 to ${MAX_WRITER_SUBJECT_LENGTH} characters`);
  return p.subject;
}
