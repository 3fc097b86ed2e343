// What the Kafka store's verification counts as a readable trace of the subject besides a value under one of
// the erased aggregate keys: an event (in an events topic, or kept verbatim as a dead letter) whose data names
// the subject, with an event time before the erasure started. A student who came back after the request has
// later event times and is not counted. Returns a yes/no only: the value itself never leaves this function.
/**
 * Whether a record's value is an event whose data names the subject in `field` (or in any of `field`),
 * with an event time before `beforeMs`.
 */
export function namesSubject(value: Buffer, field: string | readonly string[], subjectId: string, beforeMs: number): boolean {
  let o: unknown;
  try {
    o = JSON.parse(value.toString('utf8'));
  } catch {
    return false; // not JSON (a dead letter's malformed value): it can name nobody this search can read
  }
  if (!o || typeof o !== 'object') return false;
  const e = o as { data?: unknown; occurredAt?: unknown };
  if (!e.data || typeof e.data !== 'object') return false;
  const data = e.data as Record<string, unknown>;
  const names = (f: string) => data[f] !== undefined && data[f] !== null && String(data[f]) === subjectId;
  if (!(typeof field === 'string' ? names(field) : field.some(names))) return false;
  // An event without a readable time counts: a trace the search cannot place after the request is kept as found.
  const at = typeof e.occurredAt === 'string' ? Date.parse(e.occurredAt) : NaN;
  return Number.isNaN(at) || at < beforeMs;
}
