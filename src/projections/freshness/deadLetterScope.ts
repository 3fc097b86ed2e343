// Which unresolved projector dead letters fall inside a freshness question. A dead-lettered event was
// committed and published but never applied, so a read whose scope holds it must not say FRESH: it is
// STALE (PROJECTOR_DEAD_LETTERED) until an operator replays it. The scope is the one pending
// publications are counted in (sql/pendingScope.ts), evaluated here on the dead letter's own message
// with the same meaning: data.<field> equal to each dataEquals value, data.createdAt within
// [createdFrom, createdTo), and the caller's membership (dataIn: any listed field has a listed value).
// Per-aggregate markers also match the aggregate id. A dead letter whose data cannot be read (not JSON,
// not an envelope, no data object) could be anyone's: it counts in every scope and for every aggregate
// of its domain (which also reveals nothing about any one aggregate). So does a backlog larger than
// the bounded read (`truncated`). Pure: decoding and matching only.
import type { UnresolvedDeadLetterRow } from './sql/readUnresolvedDeadLetters';
import type { DataIn, PendingScope, ScopeField } from '../../publication/pendingScope';

export interface DecodedDeadLetter {
  reason: string;
  /** null: the message names no aggregate. */
  aggregateId: string | null;
  /** The event's data object; null when the message cannot be read as an event envelope. */
  data: Record<string, unknown> | null;
}

export interface DeadLetterFacts {
  rows: DecodedDeadLetter[];
  /** More unresolved dead letters exist than were read. */
  truncated: boolean;
}

export interface DeadLetterCount {
  /** Dead letters known to be inside the question's scope. */
  inScope: number;
  /** Dead letters that cannot be attributed (undecodable, or beyond the bounded read): could be anyone's. */
  unattributable: number;
}

const NONE: DeadLetterCount = { inScope: 0, unattributable: 0 };

export function noDeadLetters(): DeadLetterFacts {
  return { rows: [], truncated: false };
}

function fromBase64(b64: string): string {
  return Buffer.from(b64, 'base64').toString('utf8');
}

export function decodeDeadLetter(r: UnresolvedDeadLetterRow): DecodedDeadLetter {
  let envelope: Record<string, unknown> | null = null;
  try {
    const o: unknown = JSON.parse(fromBase64(r.value));
    if (o && typeof o === 'object' && !Array.isArray(o)) envelope = o as Record<string, unknown>;
  } catch {
    // not JSON: nothing can be attributed
  }
  const d = envelope?.data;
  const data = d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : null;
  const named = typeof envelope?.aggregateId === 'string' ? envelope.aggregateId : r.aggregateId || (r.key ? fromBase64(r.key) : '');
  return { reason: r.reason, aggregateId: named ? named : null, data };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/** The event's own data.<field> (never an inherited property); memberships name their module's scope fields. */
const own = (data: Record<string, unknown>, field: ScopeField): string | undefined =>
  Object.prototype.hasOwnProperty.call(data, field) ? text(data[field]) : undefined;

function withinMembership(data: Record<string, unknown>, within: DataIn): boolean {
  return (Object.entries(within) as [ScopeField, readonly (string | number)[] | undefined][]).some(
    ([field, values]) => !!values?.some((v) => String(v) === own(data, field)),
  );
}

/** True when an event with this data belongs to the scope (same rules as the pending-row SQL). */
export function dataInScope(data: Record<string, unknown>, scope: Omit<PendingScope, 'domain'>): boolean {
  for (const [field, value] of Object.entries(scope.dataEquals ?? {}) as [ScopeField, string | number | undefined][])
    if (value !== undefined && text(data[field]) !== String(value)) return false;
  const createdAt = text(data.createdAt);
  if (scope.createdFrom && !(createdAt !== undefined && createdAt >= scope.createdFrom.toISOString())) return false;
  if (scope.createdTo && !(createdAt !== undefined && createdAt < scope.createdTo.toISOString())) return false;
  if (scope.dataIn && !withinMembership(data, scope.dataIn)) return false;
  return true;
}

function count(f: DeadLetterFacts, inside: (d: DecodedDeadLetter & { data: Record<string, unknown> }) => boolean): DeadLetterCount {
  if (!f.rows.length && !f.truncated) return NONE;
  let inScope = 0;
  let unattributable = f.truncated ? 1 : 0;
  for (const d of f.rows) {
    if (d.data === null) unattributable++;
    else if (inside({ ...d, data: d.data })) inScope++;
  }
  return { inScope, unattributable };
}

export function deadLettersInScope(f: DeadLetterFacts, scope: PendingScope): DeadLetterCount {
  return count(f, (d) => dataInScope(d.data, scope));
}

export function deadLettersOfAggregate(f: DeadLetterFacts, aggregateId: string, within?: DataIn): DeadLetterCount {
  return count(f, (d) => d.aggregateId === aggregateId && (!within || withinMembership(d.data, within)));
}
