// Small formatting rules shared by the pages (pure, so they are unit-tested).

/** "0 s", "42 s", "3 min 5 s", "2 h 4 min". */
export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return 'unknown';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function formatLagMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? 'unknown' : ms < 1000 ? `${Math.round(ms)} ms` : formatAge(ms / 1000);
}

/** HH:MM:SS of an ISO instant in UTC (the console shows UTC throughout, like the API). */
export function clockTime(iso: string | number): string {
  return new Date(iso).toISOString().slice(11, 19);
}

/** A datetime-local value (YYYY-MM-DDTHH:MM, read as UTC) to an ISO instant; undefined when empty or invalid. */
export function utcInputToIso(v: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(v)) return undefined;
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : `${v}${v.length === 16 ? ':00' : ''}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Counts of items per key, in the order of `order` (keys absent from `order` come last). */
export function countBy<T>(items: readonly T[], key: (t: T) => string, order: readonly string[] = []): [string, number][] {
  const m = new Map<string, number>(order.map((k) => [k, 0]));
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return [...m.entries()];
}
