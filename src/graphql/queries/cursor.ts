// Opaque keyset cursors: base64url JSON of the last row's sort key. Decoding validates the shape, so a
// tampered cursor is a VALIDATION_FAILED error on `after`, never a value inside SQL.
import { ValidationError } from '../../shared/errors';

export function encodeCursor(key: Record<string, string | number>): string {
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

export function pageSize(first: number | null | undefined, max: number, fallback = 50): number {
  const n = first ?? Math.min(fallback, max);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ValidationError('first', `first must be between 1 and ${max}`, { max });
  return n;
}
