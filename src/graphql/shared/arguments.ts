// Argument checks shared by every resolver, so one kind of argument has one rule everywhere.
import { hasControlCharacters } from '../../shared/controlCharacters';
import { ValidationError } from '../../shared/errors';

/** Optional free text (reasons, filters): 1 to `max` characters, no control characters. */
export function text(field: string, v: string | null | undefined, max: number): string | undefined {
  if (v == null) return undefined;
  if (v.length === 0 || v.length > max || hasControlCharacters(v))
    throw new ValidationError(field, `${field} must be 1 to ${max} characters without control characters`);
  return v;
}
