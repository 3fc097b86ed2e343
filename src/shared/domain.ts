// The domains Tidemark serves, on the ground floor: auth policies, metrics and the publication layer
// all name a domain, and auth and metrics sit below publication, so the name cannot live up there.
// publication/event.ts re-exports both for the code that already speaks of events.

export type Domain = 'fitness' | 'orders';
export const DOMAINS: readonly Domain[] = ['fitness', 'orders'];
