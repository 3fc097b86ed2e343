// One keyed hash for everything that must stand for a person without naming them: the erasure
// ledger's subject, a customer's pseudonym, an erased id kept in the reconciliation ledger. HMAC-SHA256
// under a secret key (src/erasure/erasureKey.ts), so nobody without the key can test a guess (a plain
// hash of a small integer id is reversed by trying them all). Parts are length-prefixed, so ('a','bc')
// and ('ab','c') never collide.
import { createHmac } from 'node:crypto';

/** Hex HMAC-SHA256 of the parts under the key (64 characters). */
export function keyedHash(key: Buffer, ...parts: readonly string[]): string {
  const mac = createHmac('sha256', key);
  for (const p of parts) mac.update(`${Buffer.byteLength(p)}:${p};`);
  return mac.digest('hex');
}

/** What stands for an erased id in a record that is kept: 'erased:' and the first 32 hex characters of its keyed hash. */
export function erasedMarker(key: Buffer, ...parts: readonly string[]): string {
  return `erased:${keyedHash(key, ...parts).slice(0, 32)}`;
}
