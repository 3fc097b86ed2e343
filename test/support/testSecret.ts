// The HS256 secret every test environment signs and verifies bearer tokens with (testEnv.ts). Its own
// module, so the log check (logCheck.ts) can search for it without loading the engines' drivers.
export const TEST_JWT_SECRET = 'tidemark-test-secret-0123456789abcdef';
