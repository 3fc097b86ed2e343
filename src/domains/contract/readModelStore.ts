// The port every domain's read queries run through (src/domains/<d>/read/): a named SELECT returning
// rows. It lives here, below the projections, so a domain's read SQL needs nothing from above; the
// ClickHouse adapter (bounds, metrics, cancellation) is src/projections/read/readModelStore.ts.
export interface ReadModelStore {
  /** Runs `sql`; `queryName` labels its metrics (how tests see that DataLoaders batch). */
  select<T>(queryName: string, sql: string): Promise<T[]>;
}
