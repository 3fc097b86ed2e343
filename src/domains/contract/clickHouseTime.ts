// Time conversions at the ClickHouse edge. DateTime columns hold whole seconds in UTC and cannot
// represent instants before 1970 or after 2105, so the mapper rejects those instead of letting
// ClickHouse wrap them silently.
const MIN_MS = 0;
const MAX_MS = Date.UTC(2105, 11, 31, 23, 59, 59);

/** Epoch ms of a strict ISO-8601 UTC timestamp, or undefined when it is malformed or out of range. */
export function isoToMs(iso: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(iso)) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS ? ms : undefined;
}

// Rows of one flush mostly share their seconds, but each row has three times (created, source commit,
// ingest) in different seconds, so one remembered conversion missed on nearly every call; a small map
// of recent seconds serves all three columns (the projector formats three of these per row).
const recentSeconds = new Map<number, string>();
const RECENT_MAX = 4096;

/** 'YYYY-MM-DD hh:mm:ss' in UTC, the text a DateTime('UTC') column parses. */
export function clickHouseDateTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = recentSeconds.get(second);
  if (text === undefined) {
    text = new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ');
    if (recentSeconds.size >= RECENT_MAX) recentSeconds.clear();
    recentSeconds.set(second, text);
  }
  return text;
}
