// The name of a domain, on the ground floor: auth policies, metrics and the publication layer all
// name a domain, and they sit below the domains. Which names exist is the registry's business
// (src/domains/registry.ts: the built-in fitness and orders, and any module registered before start);
// publication/event.ts re-exports the type for the code that speaks of events.

/** A registered domain's name (lower-case letters and digits). */
export type Domain = string;

/** What a domain's name looks like: 2-31 lower-case letters or digits, a letter first. */
export const DOMAIN_NAME = /^[a-z][a-z0-9]{1,30}$/;
