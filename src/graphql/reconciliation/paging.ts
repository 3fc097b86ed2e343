// Keyset pagination of the ledger lists (newest first by id): every item carries an opaque `cursor`,
// and `after: <cursor of the last item>` continues below it. Built on the one cursor codec
// (queries/cursor.ts), so a tampered cursor is a VALIDATION_FAILED error on `after`.
import { ValidationError } from '../../shared/errors';
import { decodeCursor, encodeCursor } from '../../shared/cursor';

const MAX_PAGE = 500;

const isIdKey = (v: unknown): v is { id: number } =>
  typeof v === 'object' && v !== null && Number.isSafeInteger((v as { id?: unknown }).id) && (v as { id: number }).id > 0;

export const idCursor = (id: number): string => encodeCursor({ id });

/** The id below which the next page starts (undefined: the first page). */
function beforeIdOf(after: string | null | undefined): number | undefined {
  return decodeCursor(after, isIdKey)?.id;
}

/** `first` of an operator list: 1 to 500. */
export function page(first: number): number {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw new ValidationError('first', `first must be 1 to ${MAX_PAGE}`);
  return first;
}

export const AFTER = { nullable: true, description: 'The `cursor` of the last item of the previous page.' } as const;

/** The list filter's keyset part for `after`. */
export function afterOf(cursor: string | null | undefined): { beforeId?: number } {
  const beforeId = beforeIdOf(cursor);
  return beforeId === undefined ? {} : { beforeId };
}
