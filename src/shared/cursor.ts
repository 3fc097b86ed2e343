// Opaque keyset cursors, the one codec of every paged list (GraphQL lists and the merged publication
// view): base64url JSON of the last row's sort key. Decoding validates the shape, so a tampered cursor
// is a VALIDATION_FAILED error on `after`, never a value inside SQL.
import { ValidationError } from './errors';

export type CursorKey = Readonly<Record<string, string | number>> | readonly (string | number)[];

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor<T>(cursor: string | null | undefined, check: (v: unknown) => v is T): T | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (check(v)) return v;
  } catch {
    // fall through
  }
  throw new ValidationError('after', 'after is not a cursor returned by this query');
}

/** `first` of a paged list: an integer from 1 to `max`, or `fallback` (capped at `max`) when not given. */
export function pageSize(first: number | null | undefined, max: number, fallback = 50): number {
  const n = first ?? Math.min(fallback, max);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ValidationError('first', `first must be between 1 and ${max}`, { max });
  return n;
}
