// The canonical form of a record's business content, specified once (docs/reconciliation.md). The
// same bytes are produced by SQL on MySQL (./mysqlCells.ts), ClickHouse (./clickhouseCells.ts) and
// PostgreSQL (./postgresCells.ts), and by this file in TypeScript; canonical.int.spec.ts proves they
// agree on tricky values. Formatting differences must never look like business differences
// (2.31 == 2.310), and business differences must never hide behind formatting.
//
//   int        decimal digits, '-' for negatives, no leading zeros, no '+'           12, -3, 0
//   decimal    fixed scale per field, exactly `scale` fraction digits, '-' only       2.310, 19.9000
//              for negatives, never an exponent, no negative zero
//   text       the UTF-8 bytes as stored: no trimming, no case folding (units are     m, cm, µs
//              the catalogue's symbols; "M" vs "m" is a content difference, and a
//              value is never converted between units)
//   bool       1 or 0
//   timestamp  UTC, millisecond precision, ISO-8601: YYYY-MM-DDTHH:MM:SS.mmmZ        2026-03-01T08:00:00.120Z
//   null       the two bytes \N (any kind); distinct from the empty string
//   list       items joined by RS (0x1E); an item's cells joined by GS (0x1D); an empty list is ''
// Cells are joined by US (0x1F), in the order the field list gives. The digest is the lowercase hex
// MD5 of the line's UTF-8 bytes (MD5 is the one hash every engine here has; it detects accidental
// differences, it is not a defence against a forger). Buckets and bucket digests:
//   bucket(id)      = first 8 hex digits of md5(id as text), as an unsigned 32-bit number, mod B
//   bucket digest   = (number of records, XOR of the first 16 hex digits of each record's digest
//                      read as an unsigned 64-bit number); XOR is order-independent, so shards and
//                      engines can combine partial results in any order.
import { createHash } from 'node:crypto';
import { canonicalDecimal } from '../../shared/decimal';

export const CELL_SEPARATOR = '\u001f';
export const ITEM_SEPARATOR = '\u001e';
export const ITEM_CELL_SEPARATOR = '\u001d';
export const NULL_TOKEN = '\\N';

export type FieldKind =
  | { kind: 'int' }
  | { kind: 'decimal'; scale: number }
  | { kind: 'text' }
  | { kind: 'bool' }
  | { kind: 'timestamp' }
  | { kind: 'list'; item: readonly FieldSpec[] };

export interface FieldSpec {
  /** The field's name in the agreed event contract (data.*). */
  name: string;
  type: FieldKind;
}

export type CellValue = number | bigint | string | boolean | Date | null | undefined | readonly Record<string, CellValue>[];

function cell(type: FieldKind, v: CellValue, name: string): string {
  if (v === null || v === undefined) return NULL_TOKEN;
  switch (type.kind) {
    case 'int': {
      const s =
        typeof v === 'bigint'
          ? v.toString()
          : typeof v === 'number' && Number.isSafeInteger(v)
            ? String(v)
            : typeof v === 'string' && /^-?(0|[1-9][0-9]*)$/.test(v)
              ? v
              : undefined;
      if (s === undefined) throw new TypeError(`${name} is not an integer`);
      return s === '-0' ? '0' : s;
    }
    case 'decimal': {
      const c = typeof v === 'string' ? canonicalDecimal(v.trim(), type.scale, 40) : undefined;
      if (c === undefined) throw new TypeError(`${name} is not a decimal with at most ${type.scale} fraction digits`);
      return c;
    }
    case 'text':
      if (typeof v !== 'string') throw new TypeError(`${name} is not text`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw new TypeError(`${name} is not a boolean`);
      return v === true || v === 1 ? '1' : '0';
    case 'timestamp': {
      const d = v instanceof Date ? v : typeof v === 'number' ? new Date(v) : typeof v === 'string' ? new Date(v) : undefined;
      if (!d || Number.isNaN(d.getTime())) throw new TypeError(`${name} is not a time`);
      return d.toISOString();
    }
    case 'list': {
      if (!Array.isArray(v)) throw new TypeError(`${name} is not a list`);
      return (v as readonly Record<string, CellValue>[])
        .map((item) => type.item.map((f) => cell(f.type, item[f.name], `${name}.${f.name}`)).join(ITEM_CELL_SEPARATOR))
        .join(ITEM_SEPARATOR);
    }
  }
}

/** The canonical line of one record: its fields' cells in `fields` order, joined by US. */
export function canonicalLine(fields: readonly FieldSpec[], values: Record<string, CellValue>): string {
  return fields.map((f) => cell(f.type, values[f.name], f.name)).join(CELL_SEPARATOR);
}

export function digestOf(line: string): string {
  return createHash('md5').update(line, 'utf8').digest('hex');
}

/** The bucket of an aggregate id (its text form) among `buckets`. */
export function bucketOf(idText: string, buckets: number): number {
  return parseInt(digestOf(idText).slice(0, 8), 16) % buckets;
}

/** A record digest's contribution to its bucket digest. */
export function hash64(digest: string): bigint {
  return BigInt(`0x${digest.slice(0, 16)}`);
}

/** Count and XOR of a bucket; identical on every engine for the same set of records. */
export interface BucketDigest {
  bucket: number;
  count: number;
  xor: bigint;
}

export function combineBuckets(parts: Iterable<BucketDigest>): Map<number, BucketDigest> {
  const out = new Map<number, BucketDigest>();
  for (const p of parts) {
    const prev = out.get(p.bucket);
    out.set(p.bucket, prev ? { bucket: p.bucket, count: prev.count + p.count, xor: prev.xor ^ p.xor } : { ...p });
  }
  return out;
}

/** Buckets whose count or XOR differ between the two sides (a bucket absent on one side counts as empty). */
export function mismatchedBuckets(source: Map<number, BucketDigest>, target: Map<number, BucketDigest>): number[] {
  const all = new Set([...source.keys(), ...target.keys()]);
  const out: number[] = [];
  for (const b of all) {
    const s = source.get(b);
    const t = target.get(b);
    if ((s?.count ?? 0) !== (t?.count ?? 0) || (s?.xor ?? 0n) !== (t?.xor ?? 0n)) out.push(b);
  }
  return out.sort((a, b) => a - b);
}

/** Reads an engine's unsigned 64-bit XOR (decimal text, or a signed bigint from PostgreSQL). */
export function uint64Of(v: string | number | bigint | null | undefined): bigint {
  if (v === null || v === undefined) return 0n;
  return BigInt.asUintN(64, BigInt(v));
}

/** Names of the fields whose cells differ between two canonical lines of the same field list. */
export function differingFields(fields: readonly FieldSpec[], a: string, b: string): string[] {
  const ca = a.split(CELL_SEPARATOR);
  const cb = b.split(CELL_SEPARATOR);
  return fields.filter((_f, i) => ca[i] !== cb[i]).map((f) => f.name);
}
